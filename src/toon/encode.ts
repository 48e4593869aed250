import { encode } from "@toon-format/toon";

/** Encodes a JSON-compatible value as spec TOON v4 (two-space indent, comma delimiter). */
export function encodeToon(value: unknown): string {
  return encode(value);
}
