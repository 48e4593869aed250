/**
 * The gate the exit code follows. With --fail-under, what the score leaves out (no score, a judge
 * error, a failed critical criterion, a human review, a validator's rejection) still fails it.
 */

import type { EvaluationResult } from "../../scoring/result.js";
import { hasOverallScore, shownScore } from "../../scoring/shownScore.js";

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
