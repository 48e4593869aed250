import { ScoringError, type ScoringErrorLocation } from "./errors.js";
import type { CriterionResult } from "./result.js";
import { roundScore } from "./scale.js";

type EvaluatedCriterionResult = CriterionResult & { evaluated: true; score: number };

export function isEvaluated(result: CriterionResult): result is EvaluatedCriterionResult {
  return result.evaluated && result.score !== null;
}

/** Whether a 0–1 score reaches a threshold (float noise removed on both sides). */
export function meetsThreshold(score: number, threshold: number): boolean {
  return roundScore(score) >= roundScore(threshold);
}

/** A result whose fields contradict each other (`RESULT_INCONSISTENT`). */
export const inconsistent = (detail: string, location: ScoringErrorLocation) =>
  new ScoringError(detail, location, { code: "RESULT_INCONSISTENT" });

/** evaluated ⇔ score present, met null exactly when not evaluated, met ⇔ score ≥ threshold. */
export function assertConsistentResult(result: CriterionResult, catalogId?: string): void {
  const at = (field: string) => ({ catalogId, criterionId: result.id, field });
  if (result.evaluated && result.score === null) {
    throw inconsistent("evaluated is true but score is null", at("score"));
  }
  if (!result.evaluated && result.score !== null) {
    throw inconsistent(`evaluated is false but a score (${result.score}) is given`, at("score"));
  }
  if (result.score === null) {
    if (result.met !== null) throw inconsistent("met must be null when not evaluated", at("met"));
    return;
  }
  const expected = meetsThreshold(result.score, result.threshold);
  if (result.met !== expected) {
    const gives = `score ${result.score} vs threshold ${result.threshold} gives ${expected}`;
    throw inconsistent(`met is ${String(result.met)} but ${gives}`, at("met"));
  }
}
