/**
 * A quote is verified when its normalised words occur in the content in order, or a stretch of
 * about its length holds all of them but one in ten (at least one may be missing from a quote
 * of MIN_FUZZY_WORDS or more): one sliding-window pass, linear.
 */
const MISSING_WORDS_PER = 10;
/** Quotes shorter than this many words count only when they occur word for word. */
const MIN_FUZZY_WORDS = 5;
/** Extra words a matching stretch may have beyond the quote's own length. */
const WINDOW_SLACK = 2;

export function wordsOf(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The content prepared once for many quotes. */
export interface QuoteSource {
  words: readonly string[];
  /** The words space-joined and space-framed, for the word-for-word test. */
  joined: string;
}

export function quoteSource(text: string): QuoteSource {
  const words = wordsOf(text);
  return { words, joined: ` ${words.join(" ")} ` };
}

interface QuoteMatch {
  verified: boolean;
  /** The share of the quote's words in the best stretch (1 = word for word). */
  similarity: number;
}

/** The most of the quote's words (counted with multiplicity) in any window of the content. */
function bestWindowCount(quote: readonly string[], content: readonly string[]): number {
  const wanted = new Map<string, number>();
  for (const word of quote) wanted.set(word, (wanted.get(word) ?? 0) + 1);
  const held = new Map<string, number>();
  const size = quote.length + WINDOW_SLACK;
  let overlap = 0;
  let best = 0;
  for (let i = 0; i < content.length; i++) {
    const entering = content[i] as string;
    const want = wanted.get(entering);
    if (want !== undefined) {
      const have = (held.get(entering) ?? 0) + 1;
      held.set(entering, have);
      if (have <= want) overlap++;
    }
    const leavingAt = i - size;
    if (leavingAt >= 0) {
      const leaving = content[leavingAt] as string;
      const wantLeaving = wanted.get(leaving);
      if (wantLeaving !== undefined) {
        const have = held.get(leaving) ?? 0;
        if (have <= wantLeaving) overlap--;
        held.set(leaving, have - 1);
      }
    }
    if (overlap > best) best = overlap;
  }
  return best;
}

export function checkQuote(quote: string, source: QuoteSource): QuoteMatch {
  const words = wordsOf(quote);
  if (words.length === 0) return { verified: false, similarity: 0 };
  if (source.joined.includes(` ${words.join(" ")} `)) return { verified: true, similarity: 1 };
  const found = bestWindowCount(words, source.words);
  const similarity = Math.round((found / words.length) * 1000) / 1000;
  const missingAllowed = Math.max(1, Math.floor(words.length / MISSING_WORDS_PER));
  const verified = words.length >= MIN_FUZZY_WORDS && words.length - found <= missingAllowed;
  return { verified, similarity };
}
