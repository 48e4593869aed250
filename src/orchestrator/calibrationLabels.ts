/**
 * A reviewer's decision as calibration labels: one per criterion of the evaluation the reviewer
 * saw, the judge's outcome beside the reviewer's view — the score the reviewer gave where they
 * marked it wrong, otherwise the judge's score as it stood when they decided (kept as theirs).
 */
import type { ReviewAction, ReviewDecision } from "../graph/model.js";
import { type CalibrationLabel, withAcceptedScore } from "../scoring/calibrationLabel.js";
import type { ResolvedCorrection } from "../scoring/corrections.js";
import { checkedCorrections } from "../scoring/recordedCorrections.js";
import type { EvaluationResult } from "../scoring/result.js";
import { InvalidDecisionError } from "./errors.js";
import type { PendingReview } from "./pendingReview.js";

/** The decision the labels belong to: who decided what, when, on which review. */
export interface LabelledDecision {
  decisionId: string;
  threadId: string;
  stage: string;
  contentType: string;
  reviewer: string;
  decidedAt: string;
  action: ReviewAction;
  feedback?: string;
}

/** The id labels give an evaluation: its trace-store id, else its catalog and time. */
export function evaluationIdOf(evaluation: EvaluationResult): string {
  return evaluation.evaluationId ?? `${evaluation.catalog.id}@${evaluation.timestamp}`;
}

/**
 * The labels of a decision on an evaluation: none for a retry or a review without an evaluation,
 * otherwise one per criterion, `marked` where the reviewer corrected it.
 */
export function labelsOfDecision(
  decision: LabelledDecision,
  evaluation: EvaluationResult | null,
  corrections: readonly ResolvedCorrection[],
): CalibrationLabel[] {
  if (evaluation === null || decision.action === "retry") return [];
  const { action } = decision;
  const byCriterion = new Map(corrections.map((c) => [c.criterionId, c]));
  return evaluation.criteria.map((criterion) => {
    const correction = byCriterion.get(criterion.id);
    const label: CalibrationLabel = {
      decisionId: decision.decisionId,
      threadId: decision.threadId,
      stage: decision.stage,
      contentType: decision.contentType,
      evaluationId: evaluationIdOf(evaluation),
      reviewer: decision.reviewer,
      decidedAt: decision.decidedAt,
      action,
      ...(decision.feedback === undefined ? {} : { feedback: decision.feedback }),
      judgePassed: evaluation.passed,
      criterionId: criterion.id,
      criterionTitle: criterion.title,
      method: criterion.method,
      threshold: criterion.threshold,
      judgeScore: criterion.score,
      judgeMet: criterion.met,
      judgeNative: criterion.native,
      source: correction === undefined ? "accepted" : "marked",
    };
    if (correction === undefined) return withAcceptedScore(label);
    label.reviewerScore = correction.score;
    label.reviewerNative = correction.native;
    if (correction.note !== undefined) label.reviewerNote = correction.note;
    return label;
  });
}

/** A library decision's corrections on the 0–1 scale, or InvalidDecisionError naming the fault. */
export function decisionCorrections(
  threadId: string,
  review: PendingReview,
  decision: ReviewDecision,
): ResolvedCorrection[] {
  const inputs = "corrections" in decision ? decision.corrections : undefined;
  const checked = checkedCorrections(review.evaluation, inputs);
  if ("issue" in checked) throw new InvalidDecisionError(threadId, [checked.issue]);
  return checked.corrections;
}

/**
 * The labels of a decision a library orchestrator applied: its id is the thread and the interrupt
 * it answered (one decision each), so writing them again changes nothing.
 */
export function labelsOfReviewDecision(
  review: PendingReview,
  decision: ReviewDecision,
  decidedAt = new Date().toISOString(),
): CalibrationLabel[] {
  const corrections = decisionCorrections(review.threadId, review, decision);
  const labelled: LabelledDecision = {
    decisionId: `${review.threadId}:${review.interruptId}`,
    threadId: review.threadId,
    stage: review.contentId,
    contentType: review.contentType,
    reviewer: decision.reviewer ?? "(unnamed)",
    decidedAt,
    action: decision.action,
    ...(decision.action === "revise" ? { feedback: decision.feedback } : {}),
  };
  return labelsOfDecision(labelled, review.evaluation, corrections);
}
