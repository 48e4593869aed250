import { encode as encodeToon } from "@toon-format/toon";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

/** o200k tokens in a text (the GPT-4o / GPT-5 tokenizer; a fair proxy for local models). */
export function countTokens(text: string): number {
  return encode(text).length;
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
