import { z } from "zod";
import { REVIEW_ACTIONS } from "../scoring/calibrationLabel.js";
import { RecordedCorrectionSchema } from "../scoring/corrections.js";
import { EvaluationResultSchema } from "../scoring/result.js";
import {
  CommentSchema,
  EditContentSchema,
  FeedbackSchema,
  ReviewCorrectionListSchema,
  ReviewerNameSchema,
} from "./reviewInput.js";

export const ProcessingStatusSchema = z.enum([
  "not_started",
  "running",
  "completed",
  "evaluating",
  "awaiting_review",
  "approved",
  "revision_requested",
  "edited",
  "stale",
  "error",
]);
export type ProcessingStatus = z.infer<typeof ProcessingStatusSchema>;

export const ACCEPTED_STATUSES: ReadonlySet<ProcessingStatus> = new Set(["approved", "edited"]);

export const SectionDataSchema = z.object({
  id: z.string(),
  title: z.string().optional(),
  content: z.string().optional(),
  status: ProcessingStatusSchema.default("not_started"),
  evaluation: EvaluationResultSchema.nullable().optional(),
  lastUpdated: z.string().optional(),
});
export type SectionData = z.infer<typeof SectionDataSchema>;

export { REVIEW_ACTIONS, type ReviewAction } from "../scoring/calibrationLabel.js";

/** Where the evaluation under review is in state, with its outcome (the review carries no copy). */
export const EvaluationRefSchema = z.object({
  field: z.string(),
  evaluationId: z.string().optional(),
  overallScore: z.number(),
  passed: z.boolean(),
  verdict: z.string(),
  status: z.string().optional(),
});
export type EvaluationRef = z.infer<typeof EvaluationRefSchema>;

/** The round of writing a review is about, and the `feedback` this version answers. */
export const RevisionRoundSchema = z.object({
  number: z.number().int().min(1),
  max: z.number().int().min(1),
  feedback: z.string().optional(),
});
export type RevisionRound = z.infer<typeof RevisionRoundSchema>;

/** Why a review refused the last answer: the field at fault, what is wrong, what to send. */
export const ReviewRefusalSchema = z.object({
  field: z.string().max(300),
  problem: z.string().max(2_000),
  fix: z.string().max(1_000),
});
export type ReviewRefusal = z.infer<typeof ReviewRefusalSchema>;

export const InterruptMetadataSchema = z.object({
  type: z.enum(["evaluation_review", "evaluation_error", "generation_error", "revision_limit"]),
  contentType: z.string(),
  contentId: z.string(),
  /** The evaluation itself, or null: none, or in state where evaluationRef says. */
  evaluation: EvaluationResultSchema.nullable(),
  evaluationRef: EvaluationRefSchema.optional(),
  actions: z.array(z.enum(REVIEW_ACTIONS)),
  title: z.string(),
  description: z.string(),
  /** The review's own description: in the interrupt value, `description` is Agent Inbox's Markdown. */
  intro: z.string().optional(),
  error: z.string().optional(),
  revisions: z.object({ count: z.number().int().min(0), max: z.number().int().min(0) }).optional(),
  round: RevisionRoundSchema.optional(),
  refusal: ReviewRefusalSchema.optional(),
});
export type InterruptMetadata = z.infer<typeof InterruptMetadataSchema>;

const WhoSchema = {
  reviewer: ReviewerNameSchema.optional(),
  comment: CommentSchema.optional(),
};

/** Criteria the reviewer marks wrong, on their own scale; kept as calibration labels. */
const CorrectionsSchema = { corrections: ReviewCorrectionListSchema.optional() };

/** The reviewer's answer to the review interrupt; its fields are the review boundary's (reviewInput.ts). */
export const ReviewDecisionSchema = z.discriminatedUnion("action", [
  z.strictObject({ action: z.literal("approve"), ...WhoSchema, ...CorrectionsSchema }),
  z.strictObject({
    action: z.literal("revise"),
    feedback: FeedbackSchema,
    ...WhoSchema,
    ...CorrectionsSchema,
  }),
  z.strictObject({
    action: z.literal("edit"),
    content: EditContentSchema,
    ...WhoSchema,
    ...CorrectionsSchema,
  }),
  z.strictObject({ action: z.literal("retry"), ...WhoSchema }),
]);
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

export const DecisionRecordSchema = z.object({
  contentId: z.string(),
  contentType: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  reviewer: z.string().optional(),
  comment: z.string().optional(),
  feedback: z.string().optional(),
  decidedAt: z.string(),
  evaluation: z
    .object({
      timestamp: z.string(),
      overallScore: z.number(),
      passed: z.boolean(),
      verdict: z.string(),
      status: z.string().optional(),
    })
    .nullable(),
  staled: z.array(z.string()).default([]),
  corrections: z.array(RecordedCorrectionSchema).optional(),
});
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;
