/**
 * A levels criterion's `decode_output_schema`, sent as the structured-output format and checked
 * on every JSON answer, with the reasoning added and `level_id` limited to the level ids.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { formatSchemaError } from "../checks/schemaCriterion.js";
import type { LevelsMethod } from "../criteria/model.js";
import { linearSchemaRegExp } from "../pointFunctions/userPattern.js";
import { isRecord } from "../untrusted/json.js";

type JsonSchema = Record<string, unknown>;

export const REASONING = {
  type: "string",
  description: "the reasoning, with evidence, written first",
};

export function decodeAnswerSchema(method: LevelsMethod): JsonSchema | undefined {
  const own = method.decodeOutputSchema;
  if (own === undefined) return undefined;
  if (!isRecord(own.properties)) return own;
  const properties: Record<string, unknown> = { ...own.properties };
  const levelId = properties.level_id;
  if (isRecord(levelId) && levelId.type === "string" && levelId.enum === undefined) {
    properties.level_id = { ...levelId, enum: method.levels.map((l) => l.id) };
  }
  const required = Array.isArray(own.required) ? own.required.map(String) : [];
  return {
    ...own,
    properties: { reasoning: REASONING, ...properties },
    required: ["reasoning", ...required.filter((name) => name !== "reasoning")],
  };
}

const compiled = new Map<string, ValidateFunction | string>();
const MAX_COMPILED = 64;

function validatorFor(schema: JsonSchema): ValidateFunction | string {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  let made: ValidateFunction | string;
  try {
    made = new Ajv({
      allErrors: true,
      strict: false,
      validateFormats: false,
      logger: false,
      code: { regExp: linearSchemaRegExp },
    }).compile(schema);
  } catch (error) {
    made = `decode_output_schema is not a usable JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(key, made);
  return made;
}

export function decodeAnswerProblem(answer: unknown, schema: JsonSchema): string | undefined {
  const validate = validatorFor(schema);
  if (typeof validate === "string") return validate;
  if (validate(answer)) return undefined;
  const problems = (validate.errors ?? []).slice(0, 3).map(formatSchemaError);
  return `the answer does not follow decode_output_schema (${problems.join("; ")})`;
}
