/**
 * o200k token counts: exact for text as data holds it, and a run of letters hundreds of thousands
 * long (byte-pair merging takes time growing with the square of a piece's length) counted in
 * parts, so `evalgate tokens` on such a file ends.
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { compareFormats, countTokens } from "../../src/toon/tokenCounts.js";

describe("o200k token counts", () => {
  it("counts ordinary data exactly as the o200k encoding does", () => {
    const value = {
      funder: "Calder Bay Foundation",
      rows: Array.from({ length: 200 }, (_, i) => ({ id: i, note: `line ${i}: ${"x".repeat(i)}` })),
      blob: "a1B2c3".repeat(2_000),
    };
    const minified = JSON.stringify(value);
    expect(countTokens(minified)).toBe(encode(minified).length);
    expect(compareFormats(value).prettyJson).toBe(encode(JSON.stringify(value, null, 2)).length);
  });

  it("counts a run of a million letters, each 4,000-letter part as o200k counts it alone", () => {
    // "abab" is one o200k token: a part of 4,000 letters is 1,000 of them, give or take its ends.
    const part = encode("ab".repeat(2_000)).length;
    expect(part).toBeGreaterThanOrEqual(1_000);
    expect(part).toBeLessThanOrEqual(1_003);
    expect(countTokens("ab".repeat(500_000))).toBe(250 * part);
  });
});
