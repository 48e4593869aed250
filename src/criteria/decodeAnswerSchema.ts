/**
 * A levels criterion's `decode_output_schema` as the judge uses it: sent as the structured-output
 * format and checked on every JSON answer, with the reasoning added and `level_id` limited to the
 * level ids.
 */

import { isRecord } from "../untrusted/json.js";
import type { JsonSchema } from "./jsonSchema.js";
import type { LevelsMethod } from "./model.js";

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
