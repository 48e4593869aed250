/**
 * How one reviewer label reads as pass/fail on each side:
 * - the judge's pass is its recorded `judgeMet` (or score ≥ threshold when only the score was
 *   kept); a label without a judge score is a judge error, compared with nothing;
 * - the reviewer's pass is the score the label keeps for them ≥ the criterion's threshold: the
 *   score they gave (`marked`), or the judge's score at the time of the decision, which they
 *   accepted (`accepted`) — never the judge's side as it reads now, which a replay rewrites;
 * - on the gate as a whole, only an approval is a reviewer's pass: a revision request and an
 *   edit both say the content as judged was not ready.
 */
import type { CalibrationLabel, ReviewerAction } from "../calibrationLabel.js";
import { meetsThreshold } from "../consistency.js";

/** Whether the label has no judge score: the judge could not answer, or did not evaluate. */
export function isJudgeError(label: CalibrationLabel): boolean {
  return label.judgeScore === null;
}

/** The judge's pass/fail on the criterion; null for a judge error. */
export function judgePassOf(label: CalibrationLabel): boolean | null {
  if (label.judgeScore === null) return null;
  return label.judgeMet ?? meetsThreshold(label.judgeScore, label.threshold);
}

/** The reviewer's score as the label keeps it (given, or accepted at decision time). */
export function reviewerScoreOf(label: CalibrationLabel): number | null {
  return label.reviewerScore ?? null;
}

/** The reviewer's pass/fail on the criterion; null when there is nothing to compare. */
export function reviewerPassOf(label: CalibrationLabel): boolean | null {
  if (label.reviewerScore === undefined) return null;
  return meetsThreshold(label.reviewerScore, label.threshold);
}

/** The reviewer's verdict on the gate: approve passes, revise and edit do not. */
export function reviewerGatePass(action: ReviewerAction): boolean {
  return action === "approve";
}
