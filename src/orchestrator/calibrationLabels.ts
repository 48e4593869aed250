/** The calibration labels of a decision a library ReviewOrchestrator applied. */
import { labelsOfDecision } from "../calibration/labels.js";
import type { ReviewDecision } from "../graph/model.js";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import { checkedCorrections, type ResolvedCorrection } from "../scoring/corrections.js";
import { InvalidDecisionError } from "./errors.js";
import type { PendingReview } from "./pendingReview.js";

/** A library decision's corrections on the 0–1 scale, or InvalidDecisionError naming the fault. */
function decisionCorrections(
  threadId: string,
  review: PendingReview,
  decision: ReviewDecision,
): ResolvedCorrection[] {
  const inputs = "corrections" in decision ? decision.corrections : undefined;
  const checked = checkedCorrections(review.evaluation, inputs);
  if ("issue" in checked) throw new InvalidDecisionError(threadId, [checked.issue]);
  return checked.corrections;
}

/** The labels of the decision, keyed by thread and interrupt: writing them again changes nothing. */
export function labelsOfReviewDecision(
  review: PendingReview,
  decision: ReviewDecision,
  decidedAt = new Date().toISOString(),
): CalibrationLabel[] {
  const labelled = {
    decisionId: `${review.threadId}:${review.interruptId}`,
    threadId: review.threadId,
    stage: review.contentId,
    contentType: review.contentType,
    reviewer: decision.reviewer ?? "(unnamed)",
    decidedAt,
    action: decision.action,
    ...(decision.action === "revise" ? { feedback: decision.feedback } : {}),
  };
  const corrections = decisionCorrections(review.threadId, review, decision);
  return labelsOfDecision(labelled, review.evaluation, corrections);
}
