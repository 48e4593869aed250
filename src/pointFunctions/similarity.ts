/**
 * ROUGE-L over words and normalised Levenshtein over characters: O(n·m) dynamic programmes in
 * O(min(n, m)) memory, n·m capped (a pair above the cap is refused, sizes named).
 */
export const MAX_ROUGE_CELLS = 25_000_000;
export const MAX_LEVENSHTEIN_CELLS = 25_000_000;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** NFC, lower-cased, split on all but letters, marks and digits ("Don't stop!" → don, t, stop). */
export function wordsOf(text: string): string[] {
  return text.normalize("NFC").toLowerCase().match(WORD) ?? [];
}

function numbered(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const idOf = (token: string): number => {
    let id = ids.get(token);
    if (id === undefined) {
      id = ids.size;
      ids.set(token, id);
    }
    return id;
  };
  return [Int32Array.from(a, idOf), Int32Array.from(b, idOf)];
}

/** `columns` should be the shorter sequence. */
function lcsLength(rows: Int32Array, columns: Int32Array): number {
  let previous = new Int32Array(columns.length + 1);
  let current = new Int32Array(columns.length + 1);
  for (const token of rows) {
    for (let j = 1; j <= columns.length; j += 1) {
      const diagonal = previous[j - 1] ?? 0;
      const up = previous[j] ?? 0;
      const left = current[j - 1] ?? 0;
      current[j] = columns[j - 1] === token ? diagonal + 1 : up > left ? up : left;
    }
    [previous, current] = [current, previous];
  }
  return previous[columns.length] ?? 0;
}

export interface RougeL {
  lcs: number;
  precision: number;
  recall: number;
  f: number;
}

export type Sized<T> = T | { tooLarge: string };

function cellsText(n: number, m: number, unit: string, cap: number): string {
  const format = (value: number) => value.toLocaleString("en-US");
  return `${format(n)} × ${format(m)} ${unit} is above the ${format(cap)} cells it computes`;
}

export function rougeL(text: string, reference: string): Sized<RougeL> {
  const candidate = wordsOf(text);
  const ideal = wordsOf(reference);
  if (candidate.length === 0 || ideal.length === 0) {
    return { lcs: 0, precision: 0, recall: 0, f: 0 };
  }
  if (candidate.length * ideal.length > MAX_ROUGE_CELLS) {
    return { tooLarge: cellsText(candidate.length, ideal.length, "words", MAX_ROUGE_CELLS) };
  }
  const [a, b] = numbered(candidate, ideal);
  const lcs = a.length >= b.length ? lcsLength(a, b) : lcsLength(b, a);
  const precision = lcs / candidate.length;
  const recall = lcs / ideal.length;
  // 2PR / (P + R) with P = lcs/n and R = lcs/m is 2·lcs / (n + m): one rounding instead of five.
  const f = (2 * lcs) / (candidate.length + ideal.length);
  return { lcs, precision, recall, f };
}

function codePoints(text: string): Int32Array {
  return Int32Array.from(text, (character) => character.codePointAt(0) ?? 0);
}

/** `columns` the shorter. */
function editDistance(rows: Int32Array, columns: Int32Array): number {
  let previous = Int32Array.from({ length: columns.length + 1 }, (_, j) => j);
  let current = new Int32Array(columns.length + 1);
  let row = 0;
  for (const character of rows) {
    row += 1;
    current[0] = row;
    for (let j = 1; j <= columns.length; j += 1) {
      const substitute = (previous[j - 1] ?? 0) + (columns[j - 1] === character ? 0 : 1);
      const remove = (previous[j] ?? 0) + 1;
      const insert = (current[j - 1] ?? 0) + 1;
      current[j] = Math.min(substitute, remove, insert);
    }
    [previous, current] = [current, previous];
  }
  return previous[columns.length] ?? 0;
}

export interface LevenshteinSimilarity {
  distance: number;
  similarity: number;
}

export function levenshteinSimilarity(
  text: string,
  reference: string,
): Sized<LevenshteinSimilarity> {
  const a = codePoints(text);
  const b = codePoints(reference);
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return { distance: 0, similarity: 1 };
  if (a.length * b.length > MAX_LEVENSHTEIN_CELLS) {
    return { tooLarge: cellsText(a.length, b.length, "characters", MAX_LEVENSHTEIN_CELLS) };
  }
  const distance = a.length >= b.length ? editDistance(a, b) : editDistance(b, a);
  return { distance, similarity: 1 - distance / longer };
}

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
