import { encode as encodeToon } from "@toon-format/toon";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

/**
 * Byte-pair merging takes time growing with the square of a piece's length, and o200k makes one
 * piece of a run of letters, of punctuation or of white space: a longer run is counted in parts
 * of this many characters (each part exactly; a cut may differ by a token from the whole).
 */
const LONGEST_PIECE = 4_000;
/** Each run that could be one piece, matched once each (a linear scan). */
const RUN = /[\p{L}\p{M}]+|[^\s\p{L}\p{M}\p{N}]+|\s+/gu;
const PART = new RegExp(`[^]{1,${LONGEST_PIECE}}`, "gu");

/** o200k tokens in a text (the GPT-4o / GPT-5 tokenizer; a fair proxy for local models). */
export function countTokens(text: string): number {
  let total = 0;
  let from = 0;
  for (const run of text.matchAll(RUN)) {
    if (run[0].length <= LONGEST_PIECE) continue;
    total += encode(text.slice(from, run.index)).length;
    for (const [part] of run[0].matchAll(PART)) total += encode(part).length;
    from = run.index + run[0].length;
  }
  return total + encode(text.slice(from)).length;
}

export interface FormatTokenCounts {
  toon: number;
  prettyJson: number;
  minifiedJson: number;
  savingsVsPretty: number;
  savingsVsMinified: number;
}

export function savingsPercent(toon: number, other: number): number {
  return other === 0 ? 0 : (1 - toon / other) * 100;
}

/** Token counts of one value as TOON (`toonText` when not plain encodeToon), JSON and minified JSON. */
export function compareFormats(
  value: unknown,
  toonText: string = encodeToon(value),
): FormatTokenCounts {
  const toon = countTokens(toonText);
  const prettyJson = countTokens(JSON.stringify(value, null, 2));
  const minifiedJson = countTokens(JSON.stringify(value));
  return {
    toon,
    prettyJson,
    minifiedJson,
    savingsVsPretty: savingsPercent(toon, prettyJson),
    savingsVsMinified: savingsPercent(toon, minifiedJson),
  };
}
