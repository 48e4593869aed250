/** What every report says about the result as a whole, in the same order and words. */

import { agreementText, missingAnswers } from "../../scoring/agreement.js";
import type { CriterionResult, EvaluationResult, NativeValue } from "../../scoring/result.js";
import {
  cutDown,
  hasOverallScore,
  shownOverall,
  shownScore,
  shownThreshold,
} from "../../scoring/shownScore.js";
import { oneLine } from "../../shortText.js";

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

/** Pads `text` with spaces to `width` characters (counted as code points). */
export function padTo(text: string, width: number): string {
  const length = Array.from(text).length;
  return length >= width ? text : text + " ".repeat(width - length);
}

/** A native value as shown: 4, "pass", a level id; "—" when there is none. */
export function nativeText(native: NativeValue | undefined): string {
  if (native === null || native === undefined) return "—";
  return typeof native === "number" ? String(Number(cutDown(native, 4))) : native;
}

/** yes / no / — for a criterion's `met` (null: not evaluated). */
export function metText(met: boolean | null): string {
  if (met === null) return "—";
  return met ? "yes" : "no";
}

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

export interface GateOutcome {
  passed: boolean;
  /** Why it did not pass (empty when it passed). */
  reasons: string[];
}

/** True when some weighted, non-knockout criterion was evaluated: the overall score means something. */
function failUnderReasons(result: EvaluationResult, failUnder: number): string[] {
  const reasons: string[] = [];
  if (!hasOverallScore(result)) {
    reasons.push("no overall score: no weighted criterion could be evaluated");
  } else if (result.overallScore < failUnder) {
    reasons.push(
      `overall score ${shownScore(result.overallScore, "decimal", failUnder)} is under --fail-under ${failUnder}`,
    );
  }
  const notEvaluated = result.criteria.filter((c) => !c.evaluated).map((c) => c.id);
  if (notEvaluated.length > 0) {
    reasons.push(`not evaluated (a judge error is never a pass): ${notEvaluated.join(", ")}`);
  }
  const failedGates = result.criteria
    .filter((c) => (c.critical || c.knockout) && c.met === false)
    .map((c) => c.id);
  if (failedGates.length > 0) reasons.push(`critical criteria not met: ${failedGates.join(", ")}`);
  if (result.humanReviewRequired === true) reasons.push("a human must review it");
  if (result.validatorRejection !== undefined) reasons.push("the validator rejected it");
  return reasons;
}

/** Whether `result` passes the gate: its own `passed`, or --fail-under's rule when given. */
export function scoreGate(result: EvaluationResult, failUnder?: number): GateOutcome {
  if (failUnder === undefined) {
    if (result.passed) return { passed: true, reasons: [] };
    const reasons = [`not passed (verdict ${result.verdict})`];
    if (result.humanReviewRequired === true) {
      reasons.push(`held for human review: ${(result.humanReviewReasons ?? []).join("; ")}`);
    }
    if (result.validatorRejection !== undefined) reasons.push("the validator rejected it");
    return { passed: false, reasons };
  }
  const reasons = failUnderReasons(result, failUnder);
  return { passed: reasons.length === 0, reasons };
}
