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

/** Where a piece of content is in its life. */
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

/** Statuses that count as accepted by a reviewer. */
export const ACCEPTED_STATUSES: ReadonlySet<ProcessingStatus> = new Set(["approved", "edited"]);

/** A proposal section in state: its content, status and evaluation. */
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

/**
 * Where the evaluation under review is in state (its result field, as `researchEvaluation` or
 * `sections.<id>.evaluation`), with its outcome for a glance: the review refers to the result
 * instead of carrying a copy of it.
 */
export const EvaluationRefSchema = z.object({
  field: z.string(),
  evaluationId: z.string().optional(),
  overallScore: z.number(),
  passed: z.boolean(),
  verdict: z.string(),
  status: z.string().optional(),
});
export type EvaluationRef = z.infer<typeof EvaluationRefSchema>;

/**
 * The round of writing a review is about: round 1 is the first version, each revision adds one,
 * up to `max` (the revision limit plus one). `feedback` is what the reviewer (or an automatic
 * revision) asked for, which this version was written to answer; absent in round 1 and after a
 * rewrite for another reason (an earlier stage edited).
 */
export const RevisionRoundSchema = z.object({
  number: z.number().int().min(1),
  max: z.number().int().min(1),
  feedback: z.string().optional(),
});
export type RevisionRound = z.infer<typeof RevisionRoundSchema>;

/** Why a review refused the last answer: the field at fault, what is wrong, what to send. */
export const ReviewRefusalSchema = z.object({
  /** Where in the answer: `content`, `args.args.content`, `feedback`, `type`, … */
  field: z.string().max(300),
  problem: z.string().max(2_000),
  fix: z.string().max(1_000),
});
export type ReviewRefusal = z.infer<typeof ReviewRefusalSchema>;

/** What the reviewer is shown when the graph pauses. */
export const InterruptMetadataSchema = z.object({
  type: z.enum(["evaluation_review", "evaluation_error", "generation_error", "revision_limit"]),
  contentType: z.string(),
  /** The stage under review (research, solution, connection_pairs, a section id). */
  contentId: z.string(),
  /** The evaluation itself, or null: none, or in state where evaluationRef says. */
  evaluation: EvaluationResultSchema.nullable(),
  evaluationRef: EvaluationRefSchema.optional(),
  actions: z.array(z.enum(REVIEW_ACTIONS)),
  title: z.string(),
  description: z.string(),
  /**
   * In a paused review's interrupt value: the review's own description, kept here because
   * `description` there is the Markdown summary Agent Inbox shows (see humanInterruptOf).
   */
  intro: z.string().optional(),
  /** What went wrong, for evaluation_error. */
  error: z.string().optional(),
  /** Revisions made so far and the allowed maximum. */
  revisions: z.object({ count: z.number().int().min(0), max: z.number().int().min(0) }).optional(),
  /** Which round of writing this is (1, then one more per revision) and the most there can be. */
  round: RevisionRoundSchema.optional(),
  /** Set when the review asks again: why the last answer was refused, and how to fix it. */
  refusal: ReviewRefusalSchema.optional(),
});
export type InterruptMetadata = z.infer<typeof InterruptMetadataSchema>;

const WhoSchema = {
  reviewer: ReviewerNameSchema.optional(),
  comment: CommentSchema.optional(),
};

/**
 * Criteria whose score the reviewer marks as wrong, each with the right value on the criterion's
 * own scale (see ReviewCorrectionSchema); kept as calibration labels by the orchestrator.
 */
const CorrectionsSchema = { corrections: ReviewCorrectionListSchema.optional() };

/**
 * The reviewer's answer to the review interrupt, validated when the graph resumes: an invalid
 * value throws and the thread stays paused. Its fields are the review boundary's (reviewInput.ts):
 * a one-line reviewer name, feedback and comments with visible text and no control characters,
 * edited content of at most 1 MiB, corrections with bounded ids and notes.
 */
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
  /** Evaluate again (after a model or catalog failure was fixed). */
  z.strictObject({ action: z.literal("retry"), ...WhoSchema }),
]);
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

/** One reviewer decision, as kept in the thread's history. */
export const DecisionRecordSchema = z.object({
  contentId: z.string(),
  contentType: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  reviewer: z.string().optional(),
  comment: z.string().optional(),
  feedback: z.string().optional(),
  decidedAt: z.string(),
  /** The evaluation the decision was made on. */
  evaluation: z
    .object({
      timestamp: z.string(),
      overallScore: z.number(),
      passed: z.boolean(),
      verdict: z.string(),
      status: z.string().optional(),
    })
    .nullable(),
  /** Dependents marked stale by an edit. */
  staled: z.array(z.string()).default([]),
  /** The criteria the reviewer marked wrong with this decision: the judge's score and theirs. */
  corrections: z.array(RecordedCorrectionSchema).optional(),
});
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;
