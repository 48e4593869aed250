import { resolve as resolvePath } from "node:path";
import type { ErrorObject } from "ajv";
import { compileJsonSchema, type JsonSchema, readJsonSchemaFile } from "../criteria/jsonSchema.js";
import type { Criterion, Level } from "../criteria/model.js";
import { errorMessageOf } from "../pointFunctions/contract.js";
import type { CriterionOutcome } from "../scoring/result.js";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
import { criterionMethodMismatch, schemaUnreadable } from "./errors.js";
import { notEvaluated, yesNoOutcome } from "./outcomes.js";

export interface SchemaCriterionOptions {
  /** process.cwd() if absent. */
  baseDir?: string;
}

/** A regular file inside `baseDir`, bounded; errors never quote the file's contents. */
export async function loadJsonSchema(schemaRef: string, baseDir: string): Promise<JsonSchema> {
  const file = await readJsonSchemaFile(schemaRef, baseDir);
  if (!file.ok) throw schemaUnreadable(schemaRef, file.path, file.problem);
  return file.schema;
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

  // A catalog's load refuses a schema that does not compile; one from a file read now may not.
  const made = compileJsonSchema(schema);
  if ("problem" in made) {
    return notEvaluatedFor(`invalid JSON Schema for criterion '${criterion.id}': ${made.problem}`);
  }
  const { validate } = made;

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
