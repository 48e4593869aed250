/** How the reports show a panel's answers and agreement, and the judges' checked quotes. */
import { agreementText, missingAnswers } from "../../scoring/agreement.js";
import type { CriterionResult, EvaluationResult } from "../../scoring/result.js";
import { oneLine } from "../../shortText.js";
import { nativeText } from "./text.js";

/** The overall panel fact: its judges, the aggregate and Krippendorff's alpha over the criteria. */
export function panelFacts(result: EvaluationResult): Array<{ label: string; value: string }> {
  const facts: Array<{ label: string; value: string }> = [];
  const { panel, evidence } = result;
  if (panel !== undefined) {
    const gaps = panel.gaps === 0 ? "" : `; ${missingAnswers(panel.gaps)}`;
    facts.push({
      label: "panel",
      value: `${panel.judges.join(", ")} (${panel.aggregate}; agreement α ${agreementText(panel.agreement)}${panel.minAgreement === undefined ? "" : `, minimum ${panel.minAgreement}`}${gaps})`,
    });
  }
  if (evidence !== undefined) {
    facts.push({
      label: "quotes",
      value: `${evidence.verified} of ${evidence.quotes} found in the content${evidence.unverified === 0 ? "" : ` (${evidence.unverified} not found)`}`,
    });
  }
  return facts;
}

/** One criterion's panel: each judge's value, then the agreement and its metric. */
function panelLine(criterion: CriterionResult): string | undefined {
  const { panel } = criterion;
  if (panel === undefined) return undefined;
  const answers = panel.answers
    .map((a) => `${a.judge} ${a.evaluated ? nativeText(a.native) : "no answer"}`)
    .join(", ");
  return `${answers} — ${panel.aggregate}; agreement ${agreementText(panel.agreement)} (${panel.metric})`;
}

/** One criterion's quotes, each marked found or not found in the content. */
function quoteLines(criterion: CriterionResult): string[] {
  return (criterion.quotes ?? []).map((q) => {
    const who = q.judge === undefined ? "" : ` (${q.judge})`;
    const mark = q.verified ? "found" : `NOT FOUND in the content (similarity ${q.similarity})`;
    return `${mark}${who}: "${oneLine(q.text)}"`;
  });
}

/** The lists of the reports: why a human must review, the panel by criterion, the quotes. */
export function panelEvidenceLists(
  result: EvaluationResult,
): Array<{ title: string; items: string[] }> {
  const panel = result.criteria.flatMap((c) => {
    const line = panelLine(c);
    return line === undefined ? [] : [`${c.id}: ${line}`];
  });
  const quotes = result.criteria.flatMap((c) => quoteLines(c).map((line) => `${c.id}: ${line}`));
  return [
    { title: "Human review required", items: result.humanReviewReasons ?? [] },
    { title: "Panel", items: panel },
    { title: "Quotes", items: quotes },
  ].filter((list) => list.items.length > 0);
}
