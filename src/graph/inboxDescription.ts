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

/** A titled list of at most MAX_WARNINGS lines, the rest counted; none when it is empty. */
function listLines(title: string, items: readonly string[]): string[] {
  if (items.length === 0) return [];
  const shown = items.slice(0, MAX_WARNINGS).map((item) => `- ${markdownCell(item, 300)}`);
  const more = items.length - shown.length;
  return [title, ...shown, ...(more > 0 ? [`- and ${more} more`] : [])];
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
    // Why the result waits for a human (injection, a panel that disagrees, quotes not found …).
    const held = evaluation.humanReviewRequired === true ? evaluation.humanReviewReasons : [];
    const injection = (w: string) => /injection/i.test(w);
    const warnings = [
      ...evaluation.warnings.filter(injection),
      ...evaluation.warnings.filter((w) => !injection(w)),
    ];
    for (const lines of [
      listLines("**Held for human review**", held ?? []),
      listLines("**Warnings**", warnings),
    ]) {
      if (lines.length > 0) blocks.push(lines);
    }
  }
  blocks.push(buttonLines(allowed));
  return blocks.map((lines) => lines.join("\n")).join("\n\n");
}
