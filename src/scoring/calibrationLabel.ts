import { z } from "zod";
import { REVIEW_ACTIONS } from "./reviewAction.js";

/** What the reviewer did with the content a judge evaluated (a retry judges nothing). */
export const ReviewerActionSchema = z.enum(REVIEW_ACTIONS).exclude(["retry"]);
export type ReviewerAction = z.infer<typeof ReviewerActionSchema>;

/**
 * Where the reviewer's view of one criterion comes from:
 * - `marked`: the reviewer marked the judge's score as wrong and gave the right one;
 * - `accepted`: the reviewer decided without marking the criterion, so the score the judge gave
 *   then is the one the reviewer accepted.
 */
const ReviewerLabelSourceSchema = z.enum(["marked", "accepted"]);

/**
 * One reviewer label: a reviewer's decision next to the judge's outcome on one criterion of the
 * evaluation the reviewer saw. A decision on an evaluation of N criteria gives N labels. Scores are
 * on the 0–1 scale of the result (`null` when the judge gave none: a judge error or a criterion not
 * evaluated).
 */
export const CalibrationLabelSchema = z.object({
  decisionId: z.string().min(1),
  threadId: z.string().min(1),
  stage: z.string().min(1),
  contentType: z.string().min(1),
  evaluationId: z.string().min(1),
  reviewer: z.string().min(1),
  /** ISO 8601 time of the decision. */
  decidedAt: z.string().min(1),
  action: ReviewerActionSchema,
  /** The reviewer's feedback on a revise decision. */
  feedback: z.string().optional(),
  /** Whether the judge's gate passed the content as a whole. */
  judgePassed: z.boolean(),
  criterionId: z.string().min(1),
  criterionTitle: z.string(),
  /** How the criterion was judged (an LLM judge, a deterministic check, …). */
  method: z.string().min(1),
  threshold: z.number().min(0).max(1),
  judgeScore: z.number().min(0).max(1).nullable(),
  judgeMet: z.boolean().nullable(),
  /** The judge's value on the criterion's own scale (4 on 1–5, a level id, pass/fail). */
  judgeNative: z.union([z.number(), z.string()]).nullable().optional(),
  source: ReviewerLabelSourceSchema,
  /**
   * The score the reviewer stands behind: the right one they gave (`marked`), or the judge's score
   * at the time of the decision, which they accepted (`accepted`). Kept with the label, so a
   * judge asked again later (a replay) changes only the judge's side. Absent when the judge gave
   * no score and the reviewer gave none either.
   */
  reviewerScore: z.number().min(0).max(1).optional(),
  /** The reviewer's value on the criterion's own scale (the judge's then, when `accepted`). */
  reviewerNative: z.union([z.number(), z.string()]).optional(),
  /** The reviewer's note on a marked score. */
  reviewerNote: z.string().optional(),
});
export type CalibrationLabel = z.infer<typeof CalibrationLabelSchema>;

/**
 * The label with the reviewer's side as they decided it: an `accepted` label that does not carry
 * the reviewer's score yet gets the judge's score and value — the label's judge side is the one
 * the reviewer saw when deciding, so call this on a label as it was decided, never on one whose
 * judge side a later judge has rewritten. A label that carries the reviewer's score is returned
 * as it is.
 */
export function withAcceptedScore(label: CalibrationLabel): CalibrationLabel {
  if (label.source !== "accepted" || label.reviewerScore !== undefined) return label;
  if (label.judgeScore === null) return label;
  return {
    ...label,
    reviewerScore: label.judgeScore,
    ...(label.judgeNative === null || label.judgeNative === undefined
      ? {}
      : { reviewerNative: label.judgeNative }),
  };
}

/** A reviewer's correction of one criterion's score, sent with a decision. */
export const ScoreCorrectionSchema = z.object({
  criterionId: z.string().min(1).max(200),
  /** The right score on the 0–1 scale. */
  score: z.number().min(0).max(1),
  note: z.string().max(2000).optional(),
});
export type ScoreCorrection = z.infer<typeof ScoreCorrectionSchema>;
