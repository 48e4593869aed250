/**
 * The review desk: what the review service (HTTP API and pages) and the CLI ask of the
 * orchestrator on behalf of a signed-in reviewer. One implementation runs on SQLite (one process,
 * in-process job queue) or PostgreSQL (any number of replicas, durable jobs); the service stays a
 * thin layer of validation and rendering over this interface.
 */
import { z } from "zod";
import { REVIEW_ACTIONS, RevisionRoundSchema } from "../graph/model.js";
import {
  CommentSchema,
  EditContentSchema,
  FeedbackSchema,
  InterruptIdSchema,
  ReviewCorrectionListSchema,
} from "../graph/reviewInput.js";
import type { CalibrationMeasurement } from "../scoring/calibration/comparison.js";
import type { CalibrationReport } from "../scoring/calibration/reportSchema.js";
import { RecordedCorrectionSchema } from "../scoring/recordedCorrections.js";
import { EvaluationResultSchema, TraceSchema } from "../scoring/result.js";
import type { AttemptCount } from "../store/attemptRows.js";
import type { Reviewer } from "../store/reviewers.js";
import type { ThreadEvent } from "../store/threadEvents.js";
import type { ProposalDocument } from "./proposal/document.js";
import { wholeNumberParam } from "./wholeNumber.js";

/**
 * Longest text accepted in a request body field (an RFP, an applicant profile); what a reviewer
 * sends with a decision has the review boundary's limits (graph/reviewInput.ts).
 */
export const MAX_TEXT_CHARS = 200_000;

/** `POST /api/proposals`: start writing a proposal; the graph runs to its first review in a job. */
export const StartProposalSchema = z.strictObject({
  rfp: z.string().min(1).max(MAX_TEXT_CHARS),
  applicant: z.string().min(1).max(MAX_TEXT_CHARS),
  title: z.string().min(1).max(200).optional(),
});
export type StartProposal = z.infer<typeof StartProposalSchema>;

/**
 * `POST /api/reviews/:threadId/decisions`: a reviewer's decision on the pending interrupt, its
 * fields checked by the review boundary's schemas (reviewInput.ts): feedback and comments with
 * visible text and no control characters (at most 20,000 characters), content of at most 1 MiB
 * without NUL or other control characters, bounded ids and notes.
 */
export const DecisionRequestSchema = z.strictObject({
  interruptId: InterruptIdSchema,
  action: z.enum(REVIEW_ACTIONS),
  feedback: FeedbackSchema.optional(),
  /**
   * With edit: the new content as text; structured content (the research, the solution, the
   * connection pairs) may also be given as the JSON object or list itself, read as its JSON text
   * and checked like it (size, depth, the stage's schema).
   */
  content: z
    .preprocess(
      (value) => (typeof value === "object" && value !== null ? JSON.stringify(value) : value),
      EditContentSchema,
    )
    .optional(),
  comment: CommentSchema.optional(),
  /**
   * With approve, revise or edit: criteria whose score is wrong, each with the right `score` on
   * the criterion's own scale (2 on a 1–5 criterion, 0.4 on a 0–1 one) or `level` (a level id,
   * or pass/fail for a check), and an optional note.
   */
  corrections: ReviewCorrectionListSchema.optional(),
});
export type DecisionRequest = z.infer<typeof DecisionRequestSchema>;

/** `?limit=&cursor=` of the review queue. */
export const PageRequestSchema = z.object({
  limit: wholeNumberParam(1, 200).default(50),
  cursor: z.string().max(200).optional(),
});
export type PageRequest = z.infer<typeof PageRequestSchema>;

/** One row of the queue, read from the pending-review index (never from checkpoints). */
export const ReviewListItemSchema = z.object({
  threadId: z.string(),
  interruptId: z.string(),
  stage: z.string(),
  title: z.string(),
  overallScore: z.number().nullable(),
  passed: z.boolean().nullable(),
  createdAt: z.string(),
});
export type ReviewListItem = z.infer<typeof ReviewListItemSchema>;

export const ReviewPageSchema = z.object({
  items: z.array(ReviewListItemSchema),
  nextCursor: z.string().nullable(),
});
export type ReviewPage = z.infer<typeof ReviewPageSchema>;

/** `?limit=&cursor=` of the list of finished proposals. */
export const ThreadListRequestSchema = PageRequestSchema;
export type ThreadListRequest = z.infer<typeof ThreadListRequestSchema>;

/** One finished proposal of a list, read from the store's thread rows (never from checkpoints). */
export const ThreadListItemSchema = z.object({
  threadId: z.string(),
  title: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
});
export type ThreadListItem = z.infer<typeof ThreadListItemSchema>;

export const ThreadListPageSchema = z.object({
  items: z.array(ThreadListItemSchema),
  nextCursor: z.string().nullable(),
});
export type ThreadListPage = z.infer<typeof ThreadListPageSchema>;

/** One review, opened: what the reviewer reads and the actions it offers. */
export const ReviewDetailSchema = z.object({
  threadId: z.string(),
  interruptId: z.string(),
  stage: z.string(),
  title: z.string(),
  /** evaluation_review, evaluation_error, generation_error or revision_limit. */
  type: z.string(),
  /** The content: text as it is; structured content (an object, a list) as indented JSON. */
  content: z.string(),
  /** text, or a structured content's shape: object (research, solution) or list (connection pairs). */
  contentKind: z.enum(["text", "object", "list"]),
  evaluation: EvaluationResultSchema.nullable(),
  actions: z.array(z.enum(REVIEW_ACTIONS)),
  error: z.string().optional(),
  revisions: z.object({ count: z.number(), max: z.number() }).optional(),
  /** The round of writing under review (1 is the first version), its most, and the feedback it answers. */
  round: RevisionRoundSchema.optional(),
  createdAt: z.string(),
});
export type ReviewDetail = z.infer<typeof ReviewDetailSchema>;

export type { RecordedCorrection } from "../scoring/recordedCorrections.js";

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
  /** When the job applied it to the thread; absent while it waits for the job. */
  appliedAt: z.string().optional(),
  /** When the graph refused it (the thread failed; retrying the thread sets it aside). */
  refusedAt: z.string().optional(),
  /** The criteria the reviewer marked wrong with this decision. */
  corrections: z.array(RecordedCorrectionSchema).optional(),
});
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;

export const ThreadStatusSchema = z.object({
  threadId: z.string(),
  title: z.string(),
  /** running: a job is advancing it; waiting: paused at a review; finished; failed (retryable). */
  status: z.enum(["queued", "running", "waiting", "finished", "failed"]),
  stages: z.array(
    z.object({
      stage: z.string(),
      status: z.string(),
      overallScore: z.number().nullable(),
      passed: z.boolean().nullable(),
      /** The stage's latest evaluation, whose judge calls are in the trace store under this id. */
      evaluationId: z.string().optional(),
    }),
  ),
  reviewers: z.array(z.string()),
  decisions: z.array(DecisionRecordSchema),
  error: z.string().optional(),
});
export type ThreadStatus = z.infer<typeof ThreadStatusSchema>;

/** `GET /api/threads/:threadId/traces`: every judge call of the thread, per evaluation. */
export const ThreadTracesSchema = z.object({
  threadId: z.string(),
  evaluations: z.array(z.object({ evaluationId: z.string(), traces: z.array(TraceSchema) })),
});
export type ThreadTraces = z.infer<typeof ThreadTracesSchema>;

/**
 * Errors the desk throws carry these codes (EvalgateError subclasses in orchestrator/errors.ts);
 * the service maps them to HTTP statuses in one table.
 */
export const DESK_ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_ASSIGNED: 403,
  THREAD_NOT_FOUND: 404,
  INVALID_INPUT: 400,
  REVIEW_NOT_PENDING: 409,
  ALREADY_DECIDED: 409,
  ACTION_NOT_OFFERED: 422,
  THREAD_NOT_FAILED: 409,
} as const;
export type DeskErrorCode = keyof typeof DESK_ERROR_STATUS;

/** What the calibration page shows: the labels' report and the comparison measured last. */
export interface CalibrationOverview {
  report: CalibrationReport;
  /** Null until `evalgate calibrate --compare` has recorded one in this database. */
  comparison: CalibrationMeasurement | null;
}

export interface ReviewDesk {
  /** The reviewer a bearer token belongs to, or undefined (unknown or revoked). */
  authenticate(token: string): Promise<Reviewer | undefined>;
  /**
   * Signs in to the pages with a token: a new session (a random id; the store keeps its hash)
   * valid until `expiresAt` or until ended, and its reviewer; undefined for an unknown token.
   */
  openSession(
    token: string,
    expiresAt: Date,
  ): Promise<{ sessionId: string; reviewer: Reviewer } | undefined>;
  /** The reviewer of a session still open: not ended, not expired, its reviewer not revoked. */
  sessionReviewer(sessionId: string): Promise<Reviewer | undefined>;
  /** Ends the session for every replica (sign-out). */
  endSession(sessionId: string): Promise<void>;
  /** Records the thread, assigns its creator, enqueues the job that runs to the first review. */
  startProposal(input: StartProposal, by: Reviewer): Promise<{ threadId: string }>;
  /** Admin only: another reviewer may see and decide this thread's reviews. */
  assignReviewer(threadId: string, name: string, by: Reviewer): Promise<void>;
  /** The pending reviews this reviewer may see, newest first, keyset-paginated. */
  listReviews(by: Reviewer, page: PageRequest): Promise<ReviewPage>;
  /** The finished proposals this reviewer may read (all of them for admins), last finished first. */
  finishedProposals(by: Reviewer, page: ThreadListRequest): Promise<ThreadListPage>;
  getReview(threadId: string, by: Reviewer): Promise<ReviewDetail>;
  /**
   * Records the decision (one row, unique per thread and interrupt, in the transaction that takes
   * the review off the pending index) and enqueues the job that applies it. Resolves once the
   * decision is durable: it will be applied exactly once, whatever happens to this process.
   */
  decide(threadId: string, request: DecisionRequest, by: Reviewer): Promise<{ decisionId: string }>;
  threadStatus(threadId: string, by: Reviewer): Promise<ThreadStatus>;
  /**
   * The proposal the thread has written: its sections in order, the research, solution sought and
   * connection pairs, and each stage's gate record — a draft until the run finished with every
   * stage approved or edited.
   */
  threadProposal(threadId: string, by: Reviewer): Promise<ProposalDocument>;
  /** The judge calls of the thread's evaluations (oldest first), secrets replaced by `***`. */
  threadTraces(threadId: string, by: Reviewer): Promise<ThreadTraces>;
  /**
   * A failed thread queued again (once, whoever asks at the same time): a decision the graph
   * refused is set aside so its review can be decided anew; otherwise it runs on from its last
   * checkpoint. 409 (THREAD_NOT_FAILED) when the thread has not failed.
   */
  retryThread(threadId: string, by: Reviewer): Promise<{ threadId: string; status: "queued" }>;
  /** Events after `afterSeq` (0 for all), for SSE; the caller polls or waits with `waitForEvents`. */
  events(threadId: string, by: Reviewer, afterSeq: number): Promise<ThreadEvent[]>;
  /**
   * Admin only (403 FORBIDDEN otherwise): the calibration report of the labels decided in the last
   * `days` days (CALIBRATION_DAYS by default, at most MAX_CALIBRATION_DAYS) and the latest
   * recorded few-shot comparison; no judge is asked.
   */
  calibration(by: Reviewer, days?: number): Promise<CalibrationOverview>;
  /**
   * Counts a sign-in or token attempt under `key` (a client address, an account) in the store, so
   * every replica counts in the same window (`windowSeconds` from its first attempt).
   */
  countAttempt(key: string, windowSeconds: number): Promise<AttemptCount>;
  /** The attempts counted under `key` in its window still open (undefined: none). */
  attemptsOf(key: string): Promise<AttemptCount | undefined>;
  /** True when the database answers. */
  ready(): Promise<boolean>;
  /** Stops taking jobs, finishes or returns in-flight ones, closes the database. */
  close(): Promise<void>;
}
