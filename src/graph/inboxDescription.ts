/**
 * What a reviewer reads in Agent Inbox above a review's buttons: the interrupt's `description`,
 * which Agent Inbox renders as Markdown. Why the last answer was refused, when the review asks
 * again (what, which field, how to fix it); the evaluation in brief — overall score, verdict, status,
 * passed — a table of the criteria against their thresholds, the warnings (a possible prompt
 * injection first), and what each button does. Text from content, criteria or the judge is escaped
 * so it cannot add Markdown of its own (links, images, HTML).
 */
import type { CriterionResult, EvaluationResult } from "../scoring/result.js";
import type { ReviewRefusal } from "./model.js";

/** The most criteria rows and warnings shown; the rest are counted. */
const MAX_ROWS = 40;
const MAX_WARNINGS = 10;
const MAX_CELL_CHARS = 160;

/** Text with Markdown's and HTML's special characters escaped, on one line, cut to `max`. */
export function markdownText(text: string, max = MAX_CELL_CHARS): string {
  const line = text.replace(/\s+/g, " ").trim();
  const cut = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  return cut.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => `\\${c}`);
}

const score = (value: number): string => value.toFixed(2);

function criterionLine(criterion: CriterionResult): string {
  const flag = criterion.knockout ? " (knockout)" : criterion.critical ? " (critical)" : "";
  const met = criterion.met === null ? "not evaluated" : criterion.met ? "yes" : "no";
  const shown = criterion.score === null ? "—" : score(criterion.score);
  return `| ${markdownText(criterion.title)}${flag} | ${shown} | ${score(criterion.threshold)} | ${met} |`;
}

function outcomeLine(evaluation: EvaluationResult): string {
  const parts = [
    `overall ${score(evaluation.overallScore)}`,
    `verdict ${evaluation.verdict}`,
    ...(evaluation.status === undefined ? [] : [`status ${evaluation.status}`]),
    `passed ${evaluation.passed ? "yes" : "no"}`,
  ];
  return `**Outcome:** ${parts.join(" · ")}`;
}

function warningLines(evaluation: EvaluationResult): string[] {
  const injection = (w: string) => /injection/i.test(w);
  const ordered = [
    ...evaluation.warnings.filter(injection),
    ...evaluation.warnings.filter((w) => !injection(w)),
  ];
  if (ordered.length === 0) return [];
  const shown = ordered.slice(0, MAX_WARNINGS).map((w) => `- ${markdownText(w, 300)}`);
  const more = ordered.length - shown.length;
  return ["**Warnings**", ...shown, ...(more > 0 ? [`- and ${more} more`] : [])];
}

/** The buttons the review offers, in words. */
function buttonLines(allowed: { accept: boolean; respond: boolean; edit: boolean }): string[] {
  return [
    ...(allowed.accept ? ["**Accept** approves the content as it is."] : []),
    ...(allowed.respond ? ["**Respond** asks for a revision: your text is the feedback."] : []),
    ...(allowed.edit ? ["**Edit** replaces the content with your edited text."] : []),
  ];
}

/** The refused answer, first: what was wrong, in which field, and what to send instead. */
function refusalLines(refusal: ReviewRefusal): string[] {
  return [
    `**Your last answer was not accepted.** ${markdownText(refusal.field, 100)}: ${markdownText(refusal.problem, 600)}`,
    "",
    `**How to fix it:** ${markdownText(refusal.fix, 600)}`,
  ];
}

/**
 * The review's description for Agent Inbox: the refusal of the last answer when there is one,
 * `intro` (the review's own description), then the evaluation when there is one, then what each
 * allowed button does.
 */
export function inboxDescription(
  intro: string,
  evaluation: EvaluationResult | null,
  allowed: { accept: boolean; respond: boolean; edit: boolean },
  refusal?: ReviewRefusal,
): string {
  const blocks: string[][] = [
    ...(refusal === undefined ? [] : [refusalLines(refusal)]),
    [markdownText(intro, 1_000)],
  ];
  if (evaluation !== null) {
    const rows = evaluation.criteria.slice(0, MAX_ROWS).map(criterionLine);
    const more = evaluation.criteria.length - rows.length;
    blocks.push([outcomeLine(evaluation)]);
    blocks.push([
      "| criterion | score | threshold | met |",
      "|---|---|---|---|",
      ...rows,
      ...(more > 0 ? [`| and ${more} more | | | |`] : []),
    ]);
    const warnings = warningLines(evaluation);
    if (warnings.length > 0) blocks.push(warnings);
  }
  blocks.push(buttonLines(allowed));
  return blocks.map((lines) => lines.join("\n")).join("\n\n");
}
