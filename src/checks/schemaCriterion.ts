import { resolve as resolvePath } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Criterion, Level } from "../criteria/model.js";
import { resolveInFolder } from "../criteria/paths.js";
import { errorMessageOf } from "../pointFunctions/contract.js";
import { linearSchemaRegExp } from "../pointFunctions/userPattern.js";
import type { CriterionOutcome } from "../scoring/result.js";
import { describeJsonProblem, isRecord, readUntrustedJson } from "../untrusted/json.js";
import { readRegularTextFile } from "../untrusted/regularFile.js";
import { criterionMethodMismatch, schemaUnreadable } from "./errors.js";
import { notEvaluated, yesNoOutcome } from "./outcomes.js";

export interface SchemaCriterionOptions {
  /** process.cwd() if absent. */
  baseDir?: string;
}

type JsonSchema = Record<string, unknown>;

export const MAX_SCHEMA_FILE_BYTES = 1024 * 1024;

/** A regular file inside `baseDir`, bounded; errors never quote the file's contents. */
export async function loadJsonSchema(schemaRef: string, baseDir: string): Promise<JsonSchema> {
  const file = await resolveInFolder(baseDir, schemaRef);
  if (!file.found) {
    const where = file.reason === "outside" ? "outside the catalog's folder: " : "";
    throw schemaUnreadable(schemaRef, resolvePath(baseDir, schemaRef), `${where}${file.problem}`);
  }
  const path = file.path;
  const read = await readRegularTextFile(path, MAX_SCHEMA_FILE_BYTES);
  if (!read.ok) throw schemaUnreadable(schemaRef, path, read.problem.reason);
  const parsed = readUntrustedJson(read.text);
  if (!parsed.ok) {
    throw schemaUnreadable(schemaRef, path, describeJsonProblem(parsed.problem));
  }
  if (!isRecord(parsed.value)) {
    throw schemaUnreadable(schemaRef, path, "not a JSON object");
  }
  return parsed.value;
}

/**
 * The Ajv class for the schema's draft. Unknown keywords are compile errors, so a typo is reported
 * rather than ignored; `format` is an annotation only (no format vocabulary is installed); patterns
 * run in linear time.
 */
function compileSchema(schema: JsonSchema): ValidateFunction {
  const options = {
    allErrors: true,
    strictSchema: true,
    strictNumbers: true,
    // Advisory checks that reject valid schemas (open tuples, untyped keywords) stay off.
    strictTuples: false,
    strictTypes: false,
    strictRequired: false,
    validateFormats: false,
    logger: false,
    code: { regExp: linearSchemaRegExp },
  } as const;
  const draft = typeof schema.$schema === "string" ? schema.$schema : "";
  const ajv = draft.includes("2020-12")
    ? new Ajv2020(options)
    : draft.includes("2019-09")
      ? new Ajv2019(options)
      : new Ajv(options);
  return ajv.compile(schema);
}

/** "/questions: must NOT have fewer than 1 items", with the offending name or values. */
export function formatSchemaError(error: ErrorObject): string {
  const where = error.instancePath === "" ? "/" : error.instancePath;
  const params: Record<string, unknown> = error.params;
  let detail = "";
  if (error.keyword === "additionalProperties") detail = ` '${String(params.additionalProperty)}'`;
  if (error.keyword === "enum") detail = `: ${JSON.stringify(params.allowedValues)}`;
  return `${where}: ${error.message ?? error.keyword}${detail}`;
}

function outcomeFor(
  valid: boolean,
  levels: Level[] | undefined,
  evidence: string[],
): CriterionOutcome {
  const reasoning = valid
    ? "The content is valid against the JSON Schema."
    : `The content does not satisfy the JSON Schema (${evidence.length} ${
        evidence.length === 1 ? "error" : "errors"
      }).`;
  return yesNoOutcome(valid, levels, reasoning, evidence, valid ? [] : evidence);
}

function notEvaluatedFor(message: string): CriterionOutcome {
  return notEvaluated(`The JSON Schema check could not be made: ${message}`, message);
}

/** Content that is not JSON is invalid; a schema that cannot be loaded or compiled leaves the criterion not evaluated. */
export async function runSchemaCriterion(
  criterion: Criterion,
  content: unknown,
  options: SchemaCriterionOptions = {},
): Promise<CriterionOutcome> {
  const method = criterion.method;
  if (method.kind !== "schema") {
    throw criterionMethodMismatch(criterion.id, "schema", method.kind);
  }

  // The method's schema guarantees an inline schema or a schemaRef.
  let schema = method.schema;
  if (schema === undefined) {
    const baseDir = resolvePath(options.baseDir ?? process.cwd());
    try {
      schema = await loadJsonSchema(method.schemaRef ?? "", baseDir);
    } catch (error) {
      return notEvaluatedFor(errorMessageOf(error));
    }
  }

  let validate: ValidateFunction;
  try {
    validate = compileSchema(schema);
  } catch (error) {
    return notEvaluatedFor(
      `invalid JSON Schema for criterion '${criterion.id}': ${errorMessageOf(error)}`,
    );
  }

  let value: unknown = content;
  if (typeof content === "string") {
    const read = readUntrustedJson(content);
    if (!read.ok) {
      const problem = describeJsonProblem(read.problem);
      return outcomeFor(false, method.levels, [`content is not valid JSON: ${problem}`]);
    }
    value = read.value;
  }

  const valid = validate(value);
  const evidence = valid ? [] : (validate.errors ?? []).map(formatSchemaError);
  return outcomeFor(valid, method.levels, evidence);
}
