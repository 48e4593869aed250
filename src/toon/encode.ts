import { type EncodeOptions, encode } from "@toon-format/toon";

/** Options of the spec encoder: indentSize (default 2), delimiter (default ","), replacer. */
export type ToonEncodeOptions = EncodeOptions;

/** Encodes a JSON-compatible value as spec TOON v4 (two-space indent, comma delimiter by default). */
export function encodeToon(value: unknown, options?: ToonEncodeOptions): string {
  return encode(value, options);
}
