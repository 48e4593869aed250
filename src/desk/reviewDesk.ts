/**
 * The review desk: what the review service (HTTP API and pages) and the CLI ask of the
 * orchestrator on behalf of a signed-in reviewer. One implementation runs on SQLite (one process,
 * in-process job queue) or PostgreSQL (any number of replicas, durable jobs); the service stays a
 * thin layer of validation and rendering over this interface.
 */

import type { CalibrationMeasurement, CalibrationReport } from "../calibration/reportModel.js";
import type { ProposalDocument } from "../proposal/document.js";
import type { AttemptCount } from "../store/attemptRows.js";
import type { Reviewer } from "../store/reviewers.js";
import type { ThreadEvent } from "../store/threadEvents.js";
import type {
  ReviewDetail,
  ReviewPage,
  ThreadListPage,
  ThreadStatus,
  ThreadTraces,
} from "./answers.js";
import type { DecisionRequest, PageRequest, StartProposal, ThreadListRequest } from "./requests.js";

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
