/**
 * The answer contract's JSON Schema in the subset node-llama-cpp makes a grammar. Number bounds
 * have no grammar: a small integer range becomes an enum (a 1–5 scale cannot be answered with 7);
 * the parser refuses an empty reasoning, so the grammar asks for one character at least.
 */

import { isRecord } from "../../untrusted/json.js";

export type JsonSchema = Record<string, unknown>;

const KEPT_KEYS = [
  "type",
  "enum",
  "const",
  "required",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "description",
  "additionalProperties",
] as const;

/** Integer ranges up to this many values become an enum. */
const MAX_ENUM_RANGE = 101;

function integerRange(schema: JsonSchema): number[] | undefined {
  if (schema.type !== "integer") return undefined;
  const { minimum, maximum } = schema;
  if (typeof minimum !== "number" || typeof maximum !== "number") return undefined;
  const low = Math.ceil(minimum);
  const high = Math.floor(maximum);
  if (high < low || high - low + 1 > MAX_ENUM_RANGE) return undefined;
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

function propertySchema(name: string, schema: JsonSchema): JsonSchema {
  const converted = toGrammarSchema(schema);
  const mustWrite = name === "reasoning" && converted.type === "string";
  return mustWrite && converted.minLength === undefined
    ? { ...converted, minLength: 1 }
    : converted;
}

export function toGrammarSchema(schema: JsonSchema): JsonSchema {
  const range = integerRange(schema);
  if (range !== undefined) return { enum: range };
  const out: JsonSchema = {};
  for (const key of KEPT_KEYS) {
    if (schema[key] !== undefined) out[key] = schema[key];
  }
  if (isRecord(out.additionalProperties)) {
    out.additionalProperties = toGrammarSchema(out.additionalProperties);
  }
  if (isRecord(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, value]) => [
        name,
        isRecord(value) ? propertySchema(name, value) : value,
      ]),
    );
    if (out.additionalProperties === undefined) out.additionalProperties = false;
  }
  if (isRecord(schema.items)) out.items = toGrammarSchema(schema.items);
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    const options = (schema.oneOf ?? schema.anyOf) as unknown[];
    out.oneOf = options.map((option) => (isRecord(option) ? toGrammarSchema(option) : option));
  }
  return out;
}
