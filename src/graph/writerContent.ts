/**
 * A writer's answer read leniently (a number as its text, one text for a list as a list of one)
 * and then held to the content's schema; a reviewer's edit gets no such reading.
 */
import { z } from "zod";
import { isRecord } from "../untrusted/json.js";
import { type StructuredContentType, withoutEmpty } from "./structuredContent.js";

const asText = (value: unknown) =>
  typeof value === "number" || typeof value === "boolean" ? String(value) : value;

function writerObject(type: StructuredContentType, value: unknown): unknown {
  if (!isRecord(value)) return value;
  const kinds = new Map(type.fields.map((f) => [f.key, f.kind]));
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(withoutEmpty(value))) {
    const kind = kinds.get(key);
    if (kind === "text") out[key] = asText(raw);
    else if (kind === "list") {
      const items = Array.isArray(raw) ? raw : [raw];
      out[key] = items.map(asText);
    } else out[key] = raw;
  }
  return out;
}

/** What a writer's answer must be: the type's schema, after the lenient reading above. */
export function writerContentSchema(type: StructuredContentType) {
  return z.preprocess((value) => {
    if (type.shape === "object") return writerObject(type, value);
    return Array.isArray(value) ? value.map((item) => writerObject(type, item)) : value;
  }, type.schema);
}
