/** o200k token counts of one value written as TOON, 2-space JSON and minified JSON. */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { encodeToon } from "../toon/encode.js";

export interface TokenComparison {
  toon: number;
  prettyJson: number;
  minifiedJson: number;
  /** Percent fewer tokens TOON needs than 2-space JSON (negative when it needs more). */
  savingsVsPretty: number;
  /** Percent fewer tokens TOON needs than minified JSON (negative when it needs more). */
  savingsVsMinified: number;
}

/** Tokens of a text with o200k_base (the GPT-4o / GPT-5 tokenizer). */
export function countO200kTokens(text: string): number {
  return encode(text).length;
}

/** (1 − toon / other) · 100, rounded to one decimal; 0 when `other` is 0. */
export function savingsPercent(toon: number, other: number): number {
  return other === 0 ? 0 : Math.round((1 - toon / other) * 1000) / 10;
}

export function compareTokenCounts(value: unknown): TokenComparison {
  const toon = countO200kTokens(encodeToon(value));
  const prettyJson = countO200kTokens(JSON.stringify(value, null, 2));
  const minifiedJson = countO200kTokens(JSON.stringify(value));
  return {
    toon,
    prettyJson,
    minifiedJson,
    savingsVsPretty: savingsPercent(toon, prettyJson),
    savingsVsMinified: savingsPercent(toon, minifiedJson),
  };
}
