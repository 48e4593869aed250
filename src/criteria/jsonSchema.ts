/**
 * The JSON Schemas a catalog carries (a `schema` criterion's schema, a levels criterion's
 * `decode_output_schema`): read, compiled and checked by one function, the same when a catalog is
 * loaded and when a criterion runs.
 */
import { resolve as resolvePath } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { errorMessageOf } from "../pointFunctions/contract.js";
import { linearSchemaRegExp } from "../pointFunctions/userPattern.js";
import { describeJsonProblem, isRecord, readUntrustedJson } from "../untrusted/json.js";
import { readRegularTextFile } from "../untrusted/regularFile.js";
import { resolveInFolder } from "./paths.js";

export type JsonSchema = Record<string, unknown>;

export const MAX_SCHEMA_FILE_BYTES = 1024 * 1024;

export type JsonSchemaFile =
  | { ok: true; path: string; schema: JsonSchema }
  | { ok: false; path: string; problem: string };

/** A regular file inside `baseDir`, bounded; problems never quote the file's contents. */
export async function readJsonSchemaFile(
  schemaRef: string,
  baseDir: string,
): Promise<JsonSchemaFile> {
  const file = await resolveInFolder(baseDir, schemaRef);
  if (!file.found) {
    const where = file.reason === "outside" ? "outside the catalog's folder: " : "";
    return { ok: false, path: resolvePath(baseDir, schemaRef), problem: `${where}${file.problem}` };
  }
  const path = file.path;
  const read = await readRegularTextFile(path, MAX_SCHEMA_FILE_BYTES);
  if (!read.ok) return { ok: false, path, problem: read.problem.reason };
  const parsed = readUntrustedJson(read.text);
  if (!parsed.ok) return { ok: false, path, problem: describeJsonProblem(parsed.problem) };
  if (!isRecord(parsed.value)) return { ok: false, path, problem: "not a JSON object" };
  return { ok: true, path, schema: parsed.value };
}

const AJV_OPTIONS = {
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

/**
 * The Ajv class for the schema's draft. Unknown keywords are compile errors, so a typo is reported
 * rather than ignored; `format` is an annotation only (no format vocabulary is installed); patterns
 * run in linear time (RE2), so one RE2 cannot run (a backreference, a lookahead) is an error.
 */
function compileAnew(schema: JsonSchema): ValidateFunction {
  const draft = typeof schema.$schema === "string" ? schema.$schema : "";
  const ajv = draft.includes("2020-12")
    ? new Ajv2020(AJV_OPTIONS)
    : draft.includes("2019-09")
      ? new Ajv2019(AJV_OPTIONS)
      : new Ajv(AJV_OPTIONS);
  return ajv.compile(schema);
}

export type CompiledJsonSchema = { validate: ValidateFunction } | { problem: string };

const compiled = new Map<string, CompiledJsonSchema>();
const MAX_COMPILED = 64;

/**
 * The schema compiled, or why it cannot be: what a catalog's load refuses and a run reports.
 * A schema is compiled once (the last 64 are kept), so the load's compile serves the run.
 *
 * @example
 * const made = compileJsonSchema({ type: "object", required: ["title"] });
 * if ("problem" in made) console.log(made.problem);
 */
export function compileJsonSchema(schema: JsonSchema): CompiledJsonSchema {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  let made: CompiledJsonSchema;
  try {
    made = { validate: compileAnew(schema) };
  } catch (error) {
    made = { problem: errorMessageOf(error) };
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(key, made);
  return made;
}
