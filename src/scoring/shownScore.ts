/**
 * How a figure judged against a threshold is shown: cut toward minus infinity, never rounded up,
 * so that a figure under its threshold never shows as reaching it (0.7995 against 0.8 shows 79%,
 * 0.79, or 0.799, never 80%, 0.80 or 0.800). Stored figures are never changed; this is for text.
 */
import type { CriterionResult } from "./result.js";
import { roundScore } from "./scale.js";

/** At most this many decimals are shown, however many a threshold has. */
const MAX_DECIMALS = 6;

/** `value` cut down to `decimals` decimals, float noise dropped first (0.29 shows 0.290). */
export function cutDown(value: number, decimals: number): string {
  const factor = 10 ** decimals;
  const cut = Math.floor(roundScore(value * factor)) / factor;
  return (Object.is(cut, -0) ? 0 : cut).toFixed(decimals);
}

/** A 0–1 score as a decimal ("0.79") or as a whole percent ("79%"). */
export type ScoreForm = "decimal" | "percent";

const BASE_DECIMALS: Record<ScoreForm, number> = { decimal: 2, percent: 0 };

function inForm(value: number, form: ScoreForm): number {
  return form === "percent" ? roundScore(value * 100) : value;
}

/** The decimals a threshold needs in `form`: 0.805 needs 3 as a decimal, 1 as a percent. */
function decimalsFor(threshold: number | undefined, form: ScoreForm): number {
  const base = BASE_DECIMALS[form];
  if (threshold === undefined) return base;
  const [, decimals = ""] = String(roundScore(inForm(threshold, form), MAX_DECIMALS)).split(".");
  return Math.max(base, decimals.length);
}

const suffix = (form: ScoreForm) => (form === "percent" ? "%" : "");

/**
 * A 0–1 score as shown beside a verdict. Given the threshold it is judged against, it gets as
 * many decimals as the threshold shows, so one under 0.805 shows 0.804, not 0.80.
 */
export function shownScore(score: number, form: ScoreForm = "decimal", threshold?: number): string {
  return `${cutDown(inForm(score, form), decimalsFor(threshold, form))}${suffix(form)}`;
}

/** A threshold as shown beside scores: exact, with at least the form's decimals (0.80, 80.5%). */
export function shownThreshold(threshold: number, form: ScoreForm = "decimal"): string {
  return `${inForm(threshold, form).toFixed(decimalsFor(threshold, form))}${suffix(form)}`;
}

/** Whether any weighted criterion was evaluated: without one, the overall score is no figure. */
export function hasOverallScore(result: { criteria: readonly CriterionResult[] }): boolean {
  return result.criteria.some((c) => c.evaluated && !c.knockout && c.weight > 0);
}

/** The overall score as shown, or "none" when no weighted criterion could be evaluated. */
export function shownOverall(
  result: { overallScore: number; criteria: readonly CriterionResult[] },
  form: ScoreForm = "decimal",
): string {
  if (!hasOverallScore(result)) return "none (no weighted criterion could be evaluated)";
  return shownScore(result.overallScore, form);
}
