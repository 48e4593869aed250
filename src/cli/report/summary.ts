/** What every report says about the result as a whole, in the same order and words. */

import type { CriterionResult, EvaluationResult } from "../../scoring/result.js";
import { shownOverall, shownScore, shownThreshold } from "../../scoring/shownScore.js";
import { oneLine } from "../../shortText.js";
import { panelEvidenceLists, panelFacts } from "./panelEvidence.js";
import { scoreGate } from "./scoreGate.js";
import { metText, nativeText } from "./text.js";

interface ReportFact {
  label: string;
  value: string;
}

/** With --fail-under, the gate the exit code follows (it may differ from `passed`), and why. */
function gateFact(result: EvaluationResult, failUnder: number): ReportFact {
  const gate = scoreGate(result, failUnder);
  const why = gate.passed ? "" : `: ${gate.reasons.join("; ")}`;
  return {
    label: "gate",
    value: `${gate.passed ? "passed" : "failed"} (--fail-under ${failUnder}${why})`,
  };
}

/** The overall lines: score, native total, verdict, status, passed, gate, model, tokens, cache hits. */
export function overallFacts(result: EvaluationResult, failUnder?: number): ReportFact[] {
  const facts: ReportFact[] = [{ label: "overall score", value: shownOverall(result) }];
  if (result.nativeTotal !== undefined) {
    facts.push({ label: "native total", value: String(Number(result.nativeTotal.toFixed(4))) });
  }
  facts.push({ label: "verdict", value: result.verdict });
  if (result.status !== undefined) facts.push({ label: "status", value: result.status });
  facts.push({ label: "passed", value: result.passed ? "yes" : "no" });
  if (failUnder !== undefined) facts.push(gateFact(result, failUnder));
  if (result.humanReviewRequired === true) {
    const count = result.humanReviewReasons?.length ?? 0;
    const why = count === 1 ? "1 reason" : `${count} reasons`;
    facts.push({ label: "human review", value: `required (${why}, listed below)` });
  }
  facts.push(...panelFacts(result));
  if (result.model !== undefined) facts.push({ label: "model", value: result.model });
  facts.push({ label: "tokens", value: `${result.usage.totalTokens}` });
  const hits = result.cacheHits ?? 0;
  if (hits > 0) facts.push({ label: "cache hits", value: `${hits} of ${cacheHitsOutOf(result)}` });
  return facts;
}

/** What `cacheHits` counts: criteria, or with a panel each member's answer to a criterion. */
function cacheHitsOutOf(result: EvaluationResult): string {
  if (result.panel === undefined) return `${result.criteria.length} criteria`;
  const answers = result.criteria.reduce((n, c) => n + (c.panel?.answers.length ?? 0), 0);
  return `${answers} panel answers`;
}

/** The titled lists after the criteria: strengths, weaknesses, suggestions, not evaluated, warnings. */
export function resultLists(result: EvaluationResult): Array<{ title: string; items: string[] }> {
  const notEvaluated = result.criteria
    .filter((c) => !c.evaluated)
    .map((c) => `${c.id}: ${oneLine(c.judgeError ?? "not evaluated")}`);
  return [
    ...panelEvidenceLists(result),
    { title: "Strengths", items: result.strengths },
    { title: "Weaknesses", items: result.weaknesses },
    { title: "Suggestions", items: result.suggestions },
    { title: "Not evaluated", items: notEvaluated },
    { title: "Warnings", items: result.warnings },
  ].filter((list) => list.items.length > 0);
}

/** One criterion as the tables show it, every cell already text. */
interface CriterionRow {
  criterion: string;
  method: string;
  native: string;
  score: string;
  threshold: string;
  met: string;
  reasoning: string;
}

export function criterionRow(criterion: CriterionResult): CriterionRow {
  const label =
    criterion.title === criterion.id ? criterion.id : `${criterion.id} ${criterion.title}`;
  const flag = criterion.knockout ? "knockout" : criterion.critical ? "critical" : undefined;
  return {
    criterion: flag === undefined ? label : `${label} (${flag})`,
    method: criterion.method,
    native: nativeText(criterion.native),
    score:
      criterion.score === null ? "—" : shownScore(criterion.score, "decimal", criterion.threshold),
    threshold: shownThreshold(criterion.threshold),
    met: metText(criterion.met),
    reasoning: oneLine(
      criterion.evaluated ? criterion.reasoning : (criterion.judgeError ?? criterion.reasoning),
    ),
  };
}

/** The heading of a report: which catalog, which version. */
export function reportTitle(result: EvaluationResult): string {
  const name = result.catalog.name ?? result.catalog.id;
  const registry = result.catalog.registryVersion === undefined ? "" : ", from the rubric registry";
  return `Evaluation against ${name} (${result.catalog.id} ${result.catalog.version}${registry})`;
}

/** The feedback's non-empty lines, each with its whitespace collapsed. */
function feedbackLines(feedback: string): string[] {
  return feedback
    .split(/\r?\n/)
    .map(oneLine)
    .filter((line) => line !== "");
}

/** The heading of the suggestions block in the template summary. */
const SUGGESTIONS_HEADING = "Suggestions for improvement:";

/** The feedback without the template's suggestions block when the report lists them itself. */
export function summaryText(result: Pick<EvaluationResult, "feedback" | "suggestions">): string {
  if (result.suggestions.length === 0) return result.feedback;
  const lines = result.feedback.split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim() === SUGGESTIONS_HEADING);
  if (start < 0) return result.feedback;
  let end = start + 1;
  while (end < lines.length && /^\s+- /.test(lines[end] ?? "")) end += 1;
  return [...lines.slice(0, start), ...lines.slice(end)].join("\n").trim();
}

/** What the table and the Markdown reports show, in their order: each only formats it. */
export function reportContent(result: EvaluationResult, failUnder?: number) {
  return {
    title: reportTitle(result),
    facts: overallFacts(result, failUnder),
    rows: result.criteria.map(criterionRow),
    summary: feedbackLines(summaryText(result)),
    lists: resultLists(result),
  };
}
