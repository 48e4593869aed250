import { z } from "zod";

/** What a reviewer can answer a review with: the one vocabulary of the graph, the store and the desk. */
export const REVIEW_ACTIONS = ["approve", "revise", "edit", "retry"] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** What the reviewer did with the content a judge evaluated (a retry judges nothing). */
const ReviewerActionSchema = z.enum(REVIEW_ACTIONS).exclude(["retry"]);

/** A reviewer's decision next to the judge's outcome on one criterion (scores 0–1). */
export const CalibrationLabelSchema = z.object({
  decisionId: z.string().min(1),
  threadId: z.string().min(1),
  stage: z.string().min(1),
  contentType: z.string().min(1),
  evaluationId: z.string().min(1),
  reviewer: z.string().min(1),
  decidedAt: z.string().min(1),
  action: ReviewerActionSchema,
  feedback: z.string().optional(),
  /** Whether the judge's gate passed the content as a whole. */
  judgePassed: z.boolean(),
  criterionId: z.string().min(1),
  criterionTitle: z.string(),
  method: z.string().min(1),
  threshold: z.number().min(0).max(1),
  judgeScore: z.number().min(0).max(1).nullable(),
  judgeMet: z.boolean().nullable(),
  /** The judge's value on the criterion's own scale (4 on 1–5, a level id, pass/fail). */
  judgeNative: z.union([z.number(), z.string()]).nullable().optional(),
  /** `marked`: the reviewer gave the right score; `accepted`: they decided on the judge's. */
  source: z.enum(["marked", "accepted"]),
  /** Kept with the label, so a judge asked again later (a replay) changes only the judge's side. */
  reviewerScore: z.number().min(0).max(1).optional(),
  reviewerNative: z.union([z.number(), z.string()]).optional(),
  reviewerNote: z.string().optional(),
  /** The catalog the judge used: the registry's `name@version`, else the catalog's `id@version`. */
  judgedWith: z.string().min(1).optional(),
});
export type CalibrationLabel = z.infer<typeof CalibrationLabelSchema>;

/**
 * An `accepted` label gets the judge's score as the reviewer's: call it on a label as decided,
 * never on one whose judge side a later judge has rewritten.
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
  score: z.number().min(0).max(1),
  note: z.string().max(2000).optional(),
});
export type ScoreCorrection = z.infer<typeof ScoreCorrectionSchema>;
