import type { CriterionResult, EvidenceSummary, QuoteCheck } from "../scoring/result.js";
import type { JudgedCriterion } from "./criterionJudge.js";
import { checkQuote, type QuoteSource, quoteSource } from "./quoteCheck.js";
import { shown } from "./screening.js";

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

interface EvidenceCheck {
  criteria: CriterionResult[];
  summary: EvidenceSummary;
  warnings: string[];
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
): EvidenceCheck {
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
