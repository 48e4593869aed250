import { type Catalog, type Criterion, levelsOf, nativeScaleOf } from "../criteria/model.js";
import type { CriterionResult, FundingStatus, Verdict } from "./result.js";
import { fromUnit, topLevel } from "./scale.js";
import { cutDown, shownOverall, shownScore } from "./shownScore.js";

/** What the deterministic summary reads from a scored evaluation. */
export interface SummaryInput {
  passed: boolean;
  /** The settled verdict: its word opens the summary (without it, PASSED or FAILED by `passed`). */
  verdict?: Verdict;
  overallScore: number;
  criteria: readonly CriterionResult[];
  status?: FundingStatus;
  nativeTotal?: number;
  /** Why a human must review the result before it can pass. */
  humanReviewReasons?: readonly string[];
  /** A caller's validator rejected the result: its reason, or "". */
  validatorRejection?: string;
}

/** The lines that say why a result is held or rejected whatever its scores. */
function overrideLines(evaluation: SummaryInput): string[] {
  const lines: string[] = [];
  const reasons = evaluation.humanReviewReasons ?? [];
  if (reasons.length > 0) lines.push(`Held for human review: ${reasons.join("; ")}`);
  const rejection = evaluation.validatorRejection;
  if (rejection !== undefined) {
    lines.push(`Rejected by the custom validator${rejection === "" ? "" : `: ${rejection}`}`);
  }
  return lines;
}

/** A native value cut down at two decimals: 3.996 shows 3.99, never the 4 it misses. */
function formatNative(value: number | string): string {
  return typeof value === "number" ? String(Number(cutDown(value, 2))) : value;
}

/** `Clarity: excellent (score: 1.00)`, or `Market: not evaluated (judge timed out)`. */
export function criterionFeedbackLine(result: CriterionResult): string {
  if (!result.evaluated || result.score === null) {
    return `${result.title}: not evaluated (${result.judgeError ?? "no reason given"})`;
  }
  const shown = result.level ?? result.native;
  const score = `score: ${shownScore(result.score, "decimal", result.threshold)}`;
  return shown === null
    ? `${result.title}: (${score})`
    : `${result.title}: ${formatNative(shown)} (${score})`;
}

const EXCELLENT_BAND_MIN = 0.9;

function withDescription(text: string, description: string): string {
  return description.trim() === "" ? text : `${text} — ${description}`;
}

/** What to aim for next on one criterion, or undefined when there is nothing to suggest. */
function criterionSuggestion(criterion: Criterion, result: CriterionResult): string | undefined {
  if (!result.evaluated || result.score === null) return undefined;
  const levels = levelsOf(criterion.method);
  if (levels !== undefined && result.level !== undefined) {
    const top = topLevel(levels);
    if (top === undefined || top.id === result.level) return undefined;
    return withDescription(`aim for '${top.label}'`, top.description);
  }
  const method = criterion.method;
  if (method.kind === "score" && method.guidelines !== undefined) {
    if (result.score >= EXCELLENT_BAND_MIN) return undefined;
    return withDescription("aim for 'excellent'", method.guidelines.excellent);
  }
  if (result.met !== false) return undefined;
  if (method.kind === "check") return withDescription("needs a pass", criterion.description);
  const scale = nativeScaleOf(method);
  // The need rounded up, the value now cut down: "now" never shows as reaching the need.
  const needed = String(-Number(cutDown(-fromUnit(result.threshold, scale), 2)));
  const now = result.native ?? result.score;
  return withDescription(
    `reach at least ${needed} (now ${formatNative(now)})`,
    criterion.description,
  );
}

/** `Title: what to aim for` for each criterion that has something to aim for. */
export function suggestionsFor(catalog: Catalog, results: readonly CriterionResult[]): string[] {
  const byId = new Map(catalog.criteria.map((c) => [c.id, c]));
  return results.flatMap((result) => {
    const criterion = byId.get(result.id);
    const suggestion = criterion && criterionSuggestion(criterion, result);
    return suggestion === undefined ? [] : [`${result.title}: ${suggestion}`];
  });
}

/** `Evaluation PASSED|BORDERLINE|FAILED for catalog 'X'…`, in the words of the settled verdict. */
function outcomeLine(
  catalogName: string,
  evaluation: Pick<SummaryInput, "passed" | "verdict">,
): string {
  if (evaluation.passed) return `Evaluation PASSED for catalog '${catalogName}'.`;
  if (evaluation.verdict === "borderline" || evaluation.verdict === "pass") {
    return `Evaluation BORDERLINE for catalog '${catalogName}': not passed, but close.`;
  }
  return `Evaluation FAILED for catalog '${catalogName}'.`;
}

/** The outcome line, the overall score, one line per criterion, and suggestions. */
export function deterministicSummary(catalog: Catalog, evaluation: SummaryInput): string {
  const lines: string[] = [
    outcomeLine(catalog.name, evaluation),
    `Overall score: ${shownOverall(evaluation, "percent")}`,
  ];
  if (evaluation.status !== undefined) {
    const total =
      evaluation.nativeTotal !== undefined && catalog.statusRules !== undefined
        ? ` (total ${formatNative(evaluation.nativeTotal)} on ${catalog.statusRules.scale.min}–${catalog.statusRules.scale.max})`
        : "";
    lines.push(`Funding status: ${evaluation.status}${total}`);
  }
  lines.push(...overrideLines(evaluation));
  lines.push("");
  for (const result of evaluation.criteria) lines.push(`- ${criterionFeedbackLine(result)}`);

  const suggestions = suggestionsFor(catalog, evaluation.criteria).map((s) => `  - ${s}`);
  if (suggestions.length > 0) lines.push("", "Suggestions for improvement:", ...suggestions);
  return lines.join("\n");
}
