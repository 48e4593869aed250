/**
 * A review's description in Agent Inbox (Markdown): the refusal of the last answer, the
 * evaluation in brief, the criteria against their thresholds, why it is held, the warnings, the
 * buttons. Text from content, criteria or the judge is escaped so it cannot add links, images or
 * HTML.
 */

import type { CriterionResult, EvaluationResult } from "../scoring/result.js";
import { shownScore, shownThreshold } from "../scoring/shownScore.js";
import { markdownCell } from "./markdownText.js";
import type { ReviewRefusal } from "./model.js";

/** The most criteria rows and warnings shown; the rest are counted. */
const MAX_ROWS = 40;
const MAX_WARNINGS = 10;
const MAX_CELL_CHARS = 160;

function criterionLine(criterion: CriterionResult): string {
  const flag = criterion.knockout ? " (knockout)" : criterion.critical ? " (critical)" : "";
  const met = criterion.met === null ? "not evaluated" : criterion.met ? "yes" : "no";
  const shown =
    criterion.score === null ? "—" : shownScore(criterion.score, "decimal", criterion.threshold);
  return `| ${markdownCell(criterion.title, MAX_CELL_CHARS)}${flag} | ${shown} | ${shownThreshold(criterion.threshold)} | ${met} |`;
}

/** An evaluation's outcome on one line, as the terminal review and Agent Inbox show it. */
export function outcomeText(evaluation: EvaluationResult): string {
  const parts = [
    `overall ${shownScore(evaluation.overallScore)}`,
    `verdict ${evaluation.verdict}`,
    ...(evaluation.status === undefined ? [] : [`status ${evaluation.status}`]),
    `passed ${evaluation.passed ? "yes" : "no"}`,
  ];
  return parts.join(" · ");
}

/** Why the result waits for a human (injection, a panel that disagrees, quotes not found …). */
function heldLines(evaluation: EvaluationResult): string[] {
  if (evaluation.humanReviewRequired !== true) return [];
  const reasons = evaluation.humanReviewReasons ?? [];
  const shown = reasons.slice(0, MAX_WARNINGS).map((r) => `- ${markdownCell(r, 300)}`);
  const more = reasons.length - shown.length;
  return ["**Held for human review**", ...shown, ...(more > 0 ? [`- and ${more} more`] : [])];
}

function warningLines(evaluation: EvaluationResult): string[] {
  const injection = (w: string) => /injection/i.test(w);
  const ordered = [
    ...evaluation.warnings.filter(injection),
    ...evaluation.warnings.filter((w) => !injection(w)),
  ];
  if (ordered.length === 0) return [];
  const shown = ordered.slice(0, MAX_WARNINGS).map((w) => `- ${markdownCell(w, 300)}`);
  const more = ordered.length - shown.length;
  return ["**Warnings**", ...shown, ...(more > 0 ? [`- and ${more} more`] : [])];
}

function buttonLines(allowed: { accept: boolean; respond: boolean; edit: boolean }): string[] {
  return [
    ...(allowed.accept ? ["**Accept** approves the content as it is."] : []),
    ...(allowed.respond ? ["**Respond** asks for a revision: your text is the feedback."] : []),
    ...(allowed.edit ? ["**Edit** replaces the content with your edited text."] : []),
  ];
}

function refusalLines(refusal: ReviewRefusal): string[] {
  return [
    `**Your last answer was not accepted.** ${markdownCell(refusal.field, 100)}: ${markdownCell(refusal.problem, 600)}`,
    "",
    `**How to fix it:** ${markdownCell(refusal.fix, 600)}`,
  ];
}

export function inboxDescription(
  intro: string,
  evaluation: EvaluationResult | null,
  allowed: { accept: boolean; respond: boolean; edit: boolean },
  refusal?: ReviewRefusal,
): string {
  const blocks: string[][] = [
    ...(refusal === undefined ? [] : [refusalLines(refusal)]),
    [markdownCell(intro, 1_000)],
  ];
  if (evaluation !== null) {
    const rows = evaluation.criteria.slice(0, MAX_ROWS).map(criterionLine);
    const more = evaluation.criteria.length - rows.length;
    blocks.push([`**Outcome:** ${outcomeText(evaluation)}`]);
    blocks.push([
      "| criterion | score | threshold | met |",
      "|---|---|---|---|",
      ...rows,
      ...(more > 0 ? [`| and ${more} more | | | |`] : []),
    ]);
    for (const lines of [heldLines(evaluation), warningLines(evaluation)]) {
      if (lines.length > 0) blocks.push(lines);
    }
  }
  blocks.push(buttonLines(allowed));
  return blocks.map((lines) => lines.join("\n")).join("\n\n");
}
