/**
 * ROUGE-L and normalised Levenshtein against values computed by hand (the working is written
 * beside each case), and the caps that keep their O(n·m) tables bounded.
 */
import { describe, expect, it } from "vitest";
import {
  levenshteinSimilarity,
  MAX_LEVENSHTEIN_CELLS,
  MAX_ROUGE_CELLS,
  rougeL,
  wordsOf,
} from "../../src/pointFunctions/similarity.js";

/** The F-measure, for pairs within the cap. */
function f(text: string, reference: string): number {
  const result = rougeL(text, reference);
  if ("tooLarge" in result) throw new Error(result.tooLarge);
  return result.f;
}

describe("wordsOf: the tokens ROUGE-L compares", () => {
  it("lower-cases runs of letters and digits and drops everything else", () => {
    expect(wordsOf("The Budget, in 2025: €40k (net)!")).toEqual([
      "the",
      "budget",
      "in",
      "2025",
      "40k",
      "net",
    ]);
    expect(wordsOf("Don't stop")).toEqual(["don", "t", "stop"]);
    expect(wordsOf("  ...  ")).toEqual([]);
  });

  it("keeps letters of any script and joins a decomposed accent to its letter", () => {
    expect(wordsOf("Köln über Straße")).toEqual(["köln", "über", "straße"]);
    // "café" written with a combining acute accent is the same word as the composed one.
    expect(wordsOf("cafe\u0301")).toEqual(wordsOf("café"));
    expect(wordsOf("données ОБЗОР 数据")).toEqual(["données", "обзор", "数据"]);
  });
});

describe("rougeL", () => {
  it("scores Lin's example sentences", () => {
    // reference: police killed the gunman; "police kill the gunman" shares police·the·gunman:
    // LCS 3, P = R = 3/4, F = 3/4.
    expect(rougeL("police kill the gunman", "police killed the gunman")).toEqual({
      lcs: 3,
      precision: 0.75,
      recall: 0.75,
      f: 0.75,
    });
    // "the gunman kill police": in order only the·gunman: LCS 2, F = 2/4.
    expect(f("the gunman kill police", "police killed the gunman")).toBe(0.5);
  });

  it("weighs precision and recall when the lengths differ", () => {
    // text a b c d e f (6 words), reference a c f (3): LCS 3, P = 3/6, R = 3/3,
    // F = 2 · 0.5 · 1 / 1.5 = 2/3.
    expect(rougeL("a b c d e f", "a c f")).toMatchObject({ lcs: 3, precision: 0.5, recall: 1 });
    expect(f("a b c d e f", "a c f")).toBeCloseTo(2 / 3, 12);
    // Swapped: P = 1, R = 0.5, the same F.
    expect(f("a c f", "a b c d e f")).toBeCloseTo(2 / 3, 12);
  });

  it("computes F as 2·LCS / (n + m), so a hand value is met exactly", () => {
    // a b c / a x b y c: LCS 3, P = 1, R = 3/5, F = 2·3 / (3 + 5) = 0.75 (2PR/(P+R) in floating
    // point would give 0.7499999999999999).
    expect(f("a b c", "a x b y c")).toBe(0.75);
  });

  it("is a subsequence, not a substring: gaps are allowed, order is not", () => {
    // the cat sat on the mat / the cat is on the mat: the·cat·on·the·mat, LCS 5 of 6 each.
    expect(f("the cat is on the mat", "the cat sat on the mat")).toBeCloseTo(5 / 6, 12);
    // cat the / the cat: one word in order. P = R = 1/2.
    expect(f("cat the", "the cat")).toBe(0.5);
    // Repeated words: a a a / a: LCS 1, P = 1/3, R = 1, F = 2·(1/3)/(4/3) = 1/2.
    expect(f("a a a", "a")).toBe(0.5);
  });

  it("ignores case and punctuation, and compares Unicode words", () => {
    expect(f("THE cat, sat!", "the cat sat")).toBe(1);
    // straße ≠ strasse: 2 of 3 words shared, F = 2/3.
    expect(f("Straße über Köln", "strasse über köln")).toBeCloseTo(2 / 3, 12);
  });

  it("gives 0 to a text without words and to a text sharing none", () => {
    expect(f("", "the cat")).toBe(0);
    expect(f("?!", "the cat")).toBe(0);
    expect(rougeL("dog", "the cat")).toEqual({ lcs: 0, precision: 0, recall: 0, f: 0 });
  });

  it("refuses a pair whose table would exceed the cap, naming the sizes, without computing it", () => {
    const reference = "w ".repeat(5_000);
    const text = "w ".repeat(Math.floor(MAX_ROUGE_CELLS / 5_000) + 1);
    const result = rougeL(text, reference);
    expect(result).toEqual({
      tooLarge: "5,001 × 5,000 words is above the 25,000,000 cells it computes",
    });
    // At the cap exactly (5,000 × 5,000 cells) it computes: the same words, F = 1.
    expect(f("w ".repeat(5_000), reference)).toBe(1);
  });
});

describe("levenshteinSimilarity", () => {
  it("is 1 − distance / the longer length", () => {
    // kitten → sitting: k→s, e→i, +g: 3 edits over 7 characters.
    expect(levenshteinSimilarity("kitten", "sitting")).toEqual({
      distance: 3,
      similarity: 1 - 3 / 7,
    });
    // flaw → lawn: −f, +n: 2 edits over 4.
    expect(levenshteinSimilarity("flaw", "lawn")).toEqual({ distance: 2, similarity: 0.5 });
    // Symmetric.
    expect(levenshteinSimilarity("lawn", "flaw")).toEqual({ distance: 2, similarity: 0.5 });
  });

  it("compares characters, so an emoji is one character, not two code units", () => {
    // 😀a → 😀b: one substitution over two characters (in UTF-16 units it would be 1/3).
    expect(levenshteinSimilarity("😀a", "😀b")).toEqual({ distance: 1, similarity: 0.5 });
  });

  it("is case-sensitive and exact on whitespace (the point function trims and folds)", () => {
    expect(levenshteinSimilarity("ABC", "abc")).toEqual({ distance: 3, similarity: 0 });
    expect(levenshteinSimilarity(" abc", "abc")).toEqual({ distance: 1, similarity: 0.75 });
  });

  it("gives 1 to two empty texts and 0 against an empty one", () => {
    expect(levenshteinSimilarity("", "")).toEqual({ distance: 0, similarity: 1 });
    expect(levenshteinSimilarity("", "abc")).toEqual({ distance: 3, similarity: 0 });
    expect(levenshteinSimilarity("abc", "")).toEqual({ distance: 3, similarity: 0 });
  });

  it("refuses texts whose table would exceed the cap", () => {
    const side = Math.sqrt(MAX_LEVENSHTEIN_CELLS);
    const result = levenshteinSimilarity("a".repeat(side + 1), "b".repeat(side));
    expect(result).toEqual({
      tooLarge: "5,001 × 5,000 characters is above the 25,000,000 cells it computes",
    });
  });
});
