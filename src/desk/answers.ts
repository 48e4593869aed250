/** What the review desk answers, read from the store's rows and the checkpoints. */
import { z } from "zod";
import { RevisionRoundSchema } from "../graph/model.js";
import { REVIEW_ACTIONS } from "../scoring/calibrationLabel.js";
import { RecordedCorrectionSchema } from "../scoring/corrections.js";
import { EvaluationResultSchema, TraceSchema } from "../scoring/result.js";
import { PendingRowSchema, ThreadStateSchema } from "../store/types.js";

/** One row of the queue, read from the pending-review index (never from checkpoints). */
export const ReviewListItemSchema = PendingRowSchema.pick({
  threadId: true,
  interruptId: true,
  stage: true,
  title: true,
  overallScore: true,
  passed: true,
  createdAt: true,
});
export type ReviewListItem = z.infer<typeof ReviewListItemSchema>;

const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

const ReviewPageSchema = pageSchema(ReviewListItemSchema);
export type ReviewPage = z.infer<typeof ReviewPageSchema>;

/** One finished proposal of a list, read from the store's thread rows (never from checkpoints). */
const ThreadListItemSchema = z.object({
  threadId: z.string(),
  title: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
});

const ThreadListPageSchema = pageSchema(ThreadListItemSchema);
export type ThreadListPage = z.infer<typeof ThreadListPageSchema>;

const ReviewDetailSchema = z.object({
  threadId: z.string(),
  interruptId: z.string(),
  stage: z.string(),
  title: z.string(),
  type: z.string(),
  /** The content: text as it is; structured content (an object, a list) as indented JSON. */
  content: z.string(),
  contentKind: z.enum(["text", "object", "list"]),
  evaluation: EvaluationResultSchema.nullable(),
  actions: z.array(z.enum(REVIEW_ACTIONS)),
  error: z.string().optional(),
  revisions: z.object({ count: z.number(), max: z.number() }).optional(),
  round: RevisionRoundSchema.optional(),
  createdAt: z.string(),
});
export type ReviewDetail = z.infer<typeof ReviewDetailSchema>;

export const DecisionRecordSchema = z.object({
  decisionId: z.string(),
  interruptId: z.string(),
  stage: z.string(),
  reviewer: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  feedback: z.string().optional(),
  comment: z.string().optional(),
  /** With edit: the text the reviewer put in place of the content. */
  content: z.string().optional(),
  decidedAt: z.string(),
  /** Absent while it waits for the job. */
  appliedAt: z.string().optional(),
  /** When the graph refused it (the thread failed; retrying the thread sets it aside). */
  refusedAt: z.string().optional(),
  corrections: z.array(RecordedCorrectionSchema).optional(),
});
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;

export const ThreadStatusSchema = z.object({
  threadId: z.string(),
  title: z.string(),
  status: ThreadStateSchema,
  stages: z.array(
    z.object({
      stage: z.string(),
      status: z.string(),
      overallScore: z.number().nullable(),
      passed: z.boolean().nullable(),
      evaluationId: z.string().optional(),
    }),
  ),
  reviewers: z.array(z.string()),
  decisions: z.array(DecisionRecordSchema),
  error: z.string().optional(),
});
export type ThreadStatus = z.infer<typeof ThreadStatusSchema>;

/** `GET /api/threads/:threadId/traces`: every judge call of the thread, per evaluation. */
const ThreadTracesSchema = z.object({
  threadId: z.string(),
  evaluations: z.array(z.object({ evaluationId: z.string(), traces: z.array(TraceSchema) })),
});
export type ThreadTraces = z.infer<typeof ThreadTracesSchema>;
