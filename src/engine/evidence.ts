import type { CriterionResult, EvidenceSummary, QuoteCheck } from "../scoring/result.js";
import type { JudgedCriterion } from "./criterionJudge.js";
import { shown } from "./screening.js";

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

/** The content prepared once for many quotes: its words, and them space-joined and framed. */
export function quoteSource(text: string) {
  const words = wordsOf(text);
  return { words, joined: ` ${words.join(" ")} ` };
}
type QuoteSource = ReturnType<typeof quoteSource>;

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

/** Whether the quote is verified, and the share of its words in the best stretch (1: word for word). */
export function checkQuote(
  quote: string,
  source: QuoteSource,
): Pick<QuoteCheck, "verified" | "similarity"> {
  const words = wordsOf(quote);
  if (words.length === 0) return { verified: false, similarity: 0 };
  if (source.joined.includes(` ${words.join(" ")} `)) return { verified: true, similarity: 1 };
  const found = bestWindowCount(words, source.words);
  const similarity = Math.round((found / words.length) * 1000) / 1000;
  const missingAllowed = Math.max(1, Math.floor(words.length / MISSING_WORDS_PER));
  const verified = words.length >= MIN_FUZZY_WORDS && words.length - found <= missingAllowed;
  return { verified, similarity };
}

interface GivenQuote {
  criterionId: string;
  text: string;
  /** The panel member that quoted it (absent for a single judge). */
  judge?: string;
}

/** The quotes of every judged criterion (a panel's carry each member's name). */
export function givenQuotes(judged: ReadonlyMap<string, JudgedCriterion>): GivenQuote[] {
  return [...judged].flatMap(([criterionId, found]) => [
    ...(found.outcome.quotes ?? []).map((text) => ({ criterionId, text })),
    ...(found.memberQuotes ?? []).map((q) => ({ criterionId, ...q })),
  ]);
}

/** What the judge saw and may quote: the content, then each source document. */
export function quoteSources(
  text: string,
  documents: readonly { text: string }[] = [],
): QuoteSource[] {
  return [quoteSource(text), ...documents.map((d) => quoteSource(d.text))];
}

function checkOne(quote: GivenQuote, sources: readonly QuoteSource[]): QuoteCheck {
  const judge = quote.judge === undefined ? {} : { judge: quote.judge };
  const check = { text: quote.text, verified: false, similarity: 0, ...judge };
  for (const source of sources) {
    const match = checkQuote(quote.text, source);
    if (match.verified) return { ...check, verified: true, similarity: match.similarity };
    check.similarity = Math.max(check.similarity, match.similarity);
  }
  return check;
}

/**
 * Checks every quote against what the judge saw; one the content does not contain is flagged on
 * its criterion and in the warnings.
 */
export function checkEvidence(
  results: readonly CriterionResult[],
  quotes: readonly GivenQuote[],
  sources: readonly QuoteSource[],
): { criteria: CriterionResult[]; summary: EvidenceSummary; warnings: string[] } {
  const byCriterion = new Map<string, QuoteCheck[]>();
  for (const quote of quotes) {
    const checks = byCriterion.get(quote.criterionId) ?? [];
    checks.push(checkOne(quote, sources));
    byCriterion.set(quote.criterionId, checks);
  }
  const warnings: string[] = [];
  const criteria = results.map((result) => {
    const checks = byCriterion.get(result.id);
    if (checks === undefined || checks.length === 0) return result;
    for (const check of checks.filter((c) => !c.verified)) {
      const who = check.judge === undefined ? "the judge" : `judge ${check.judge}`;
      warnings.push(
        `${result.id}: ${who} quoted ${shown(check.text, 80)}, which the content does not contain`,
      );
    }
    return { ...result, quotes: checks };
  });
  const all = [...byCriterion.values()].flat();
  const verified = all.filter((c) => c.verified).length;
  return {
    criteria,
    summary: { quotes: all.length, verified, unverified: all.length - verified },
    warnings,
  };
}
