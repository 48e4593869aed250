/**
 * What the review service and the orchestrator keep beside the checkpoints: reviewers and their
 * hashed tokens, the threads they started, who may see which thread, the pending-review index the
 * queue is read from, the decisions (one per thread and interrupt) and each thread's events. Two
 * implementations share this interface: SQLite (the CLI's data folder) and PostgreSQL.
 */

import { z } from "zod";
import type {
  CalibrationMeasurement,
  NewCalibrationMeasurement,
} from "../calibration/reportModel.js";
import { type CalibrationLabel, REVIEW_ACTIONS } from "../scoring/calibrationLabel.js";
import type { AttemptCount } from "./attemptRows.js";
import { BooleanColumnSchema } from "./database.js";
import type {
  CalibrationLabelCursor,
  CalibrationLabelQuery,
  CorrectionLabelQuery,
} from "./labelRows.js";
import type { Reviewer, ReviewerRole, ReviewerRow } from "./reviewers.js";
import type { StoredRunSettings } from "./runSettingsRows.js";
import type { NewEvent, ThreadEvent } from "./threadEvents.js";
import type { ThreadLease } from "./threadLocks.js";

export type { AttemptCount, CalibrationLabelCursor, CalibrationLabelQuery, CorrectionLabelQuery };

/** The graph of the review desk's threads; a library orchestrator keeps its threads under its own. */
export const DESK_GRAPH = "review-desk";

/** Where a thread is, as the store records it. */
export const ThreadStateSchema = z.enum(["queued", "running", "waiting", "finished", "failed"]);
export type ThreadState = z.infer<typeof ThreadStateSchema>;

/** What a thread was started with: the graph input and the run settings. */
export const ThreadSettingsSchema = z.looseObject({
  input: z.record(z.string(), z.unknown()).optional(),
  model: z.string().optional(),
  maxRevisions: z.number().int().min(0).optional(),
});
export type ThreadSettings = z.infer<typeof ThreadSettingsSchema>;

/** The decision as it is handed to the graph (without who and when, which the row holds). */
export const DecisionPayloadSchema = z.looseObject({
  feedback: z.string().optional(),
  content: z.string().optional(),
  comment: z.string().optional(),
});
export type DecisionPayload = z.infer<typeof DecisionPayloadSchema>;

export const ActionListSchema = z.array(z.enum(REVIEW_ACTIONS));

export const ThreadRowSchema = z.object({
  id: z.string(),
  /** The graph the thread runs on (DESK_GRAPH for the review desk's). */
  graph: z.string(),
  title: z.string(),
  creator: z.string(),
  status: ThreadStateSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  settings: ThreadSettingsSchema,
  error: z.string().nullable(),
});
export type ThreadRow = z.infer<typeof ThreadRowSchema>;

/**
 * A thread to record: its graph is DESK_GRAPH by default; its run settings (`evalgate run`'s) are
 * written in the transaction that records it.
 */
export type NewThread = Pick<ThreadRow, "id" | "title" | "creator" | "status" | "settings"> & {
  graph?: string;
  runSettings?: StoredRunSettings;
};

/** One row of the pending-review index. */
export const PendingRowSchema = z.object({
  threadId: z.string(),
  interruptId: z.string(),
  stage: z.string(),
  title: z.string(),
  overallScore: z.number().nullable(),
  passed: BooleanColumnSchema.nullable(),
  actions: ActionListSchema,
  createdAt: z.string(),
  /** evaluation_review, evaluation_error, generation_error or revision_limit. */
  type: z.string(),
  /** pass, borderline or fail; null without an evaluation. */
  verdict: z.string().nullable(),
});
export type PendingRow = z.infer<typeof PendingRowSchema>;

export const DecisionRowSchema = z.object({
  id: z.string(),
  threadId: z.string(),
  interruptId: z.string(),
  stage: z.string(),
  reviewer: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  payload: DecisionPayloadSchema,
  decidedAt: z.string(),
  appliedAt: z.string().nullable(),
  /** When the graph refused it (the thread failed); a retry sets it aside. */
  refusedAt: z.string().nullable(),
});
export type DecisionRow = z.infer<typeof DecisionRowSchema>;

export type NewDecision = Omit<DecisionRow, "appliedAt" | "refusedAt">;

/** What recording a decision came to, decided in one transaction. */
export type RecordDecisionResult =
  | { kind: "recorded"; decision: DecisionRow }
  | { kind: "already_decided"; decision: DecisionRow }
  | { kind: "not_pending" };

/** Where a thread is left after a job step, written in one transaction. */
export interface ThreadSettlement {
  status: ThreadState;
  error?: string | null;
  /** Replaces the thread's rows in the pending-review index. */
  pending: PendingRow[];
  /** Decisions the thread has moved past: marked applied. */
  applied: string[];
  /** Decisions the graph refused: marked refused, with the reason. */
  refused?: Array<{ id: string; reason: string }>;
  events: NewEvent[];
}

/**
 * What a settlement came to: written (`settled`); the stop was settled already, the same reviews
 * pending (`unchanged`: nothing written but the decisions' marks); or a decision was recorded on
 * a review it would list and is not applied yet (`decided`: nothing written, apply it first).
 */
export type SettleOutcome = "settled" | "unchanged" | "decided";

/** The keyset position after which a page starts (newest first). */
export interface PendingCursor {
  createdAt: string;
  threadId: string;
}

export interface PendingQuery {
  /** The graph whose reviews are listed (default DESK_GRAPH). */
  graph?: string;
  /** Only the threads this reviewer is assigned to; all threads when absent (admins). */
  reviewer?: string;
  limit: number;
  /** Newest first by default; the page starts after this position in that order. */
  after?: PendingCursor;
  /** The longest waiting first instead. */
  oldestFirst?: boolean;
}

/** One row of a list of threads: what a list shows, without the thread's input. */
export const ThreadListRowSchema = ThreadRowSchema.pick({
  id: true,
  title: true,
  status: true,
  createdAt: true,
  updatedAt: true,
});
export type ThreadListRow = z.infer<typeof ThreadListRowSchema>;

/** The keyset position after which a page of threads starts (last changed first). */
export interface ThreadListCursor {
  updatedAt: string;
  threadId: string;
}

export interface ThreadListQuery {
  /** The threads in this state (of the review desk's graph). */
  status: ThreadState;
  /** Only the threads this reviewer is assigned to; all threads when absent (admins). */
  reviewer?: string;
  limit: number;
  /** The page starts after this position, last changed first. */
  after?: ThreadListCursor;
}

/** A page session as the store keeps it: the hash of its id, never the id itself. */
export interface NewSession {
  idHash: string;
  reviewer: string;
  /** ISO-8601 UTC; the session is no longer valid from then on. */
  expiresAt: string;
}

export interface ReviewStore {
  readonly kind: "sqlite" | "postgres";
  /**
   * The better-sqlite3 connection under a SQLite store (undefined on PostgreSQL), for connection
   * settings the desk makes, such as the write-ahead log's automatic checkpoint threshold.
   */
  sqliteConnection(): unknown;
  addReviewer(name: string, role: ReviewerRole, tokenHash: string): Promise<void>;
  reviewers(): Promise<ReviewerRow[]>;
  /** False when there is no such reviewer or it was revoked already. */
  revokeReviewer(name: string): Promise<boolean>;
  reviewerByTokenHash(tokenHash: string): Promise<Reviewer | undefined>;
  reviewerByName(name: string): Promise<ReviewerRow | undefined>;

  /** Records a signed-in page session (and drops the rows of sessions expired before `now`). */
  openSession(session: NewSession, now: string): Promise<void>;
  /**
   * The reviewer of a session that was opened, not ended, not expired at `now`, and whose
   * reviewer is not revoked; undefined otherwise. Every replica reads the same rows.
   */
  sessionReviewer(idHash: string, now: string): Promise<Reviewer | undefined>;
  /** Ends the session (sign-out); false when there was no open session of that hash. */
  endSession(idHash: string, now: string): Promise<boolean>;

  /** Records the thread (with its run settings, when given) and assigns its creator. */
  createThread(thread: NewThread, event: NewEvent): Promise<void>;
  /** The run settings kept with the thread; undefined when none were. */
  runSettings(threadId: string): Promise<StoredRunSettings | undefined>;
  /** Keeps the thread's run settings in place of the ones it had. */
  saveRunSettings(threadId: string, settings: StoredRunSettings): Promise<void>;
  /**
   * In one transaction: the run settings of threads that have none yet (kept by an earlier version
   * in a file); a thread's settings already in the store are left as they are. Returns how many
   * were added.
   */
  importRunSettings(entries: ReadonlyArray<readonly [string, StoredRunSettings]>): Promise<number>;
  thread(threadId: string): Promise<ThreadRow | undefined>;
  setThreadStatus(
    threadId: string,
    status: ThreadState,
    error: string | null,
    event?: NewEvent,
  ): Promise<void>;
  assign(threadId: string, reviewer: string): Promise<void>;
  assignees(threadId: string): Promise<string[]>;
  isAssigned(threadId: string, reviewer: string): Promise<boolean>;

  /** The desk's threads in one state, last changed first, one keyset page. */
  listThreads(query: ThreadListQuery): Promise<ThreadListRow[]>;

  pendingOf(threadId: string): Promise<PendingRow[]>;
  listPending(query: PendingQuery): Promise<PendingRow[]>;
  /**
   * In one transaction: takes (thread, interrupt) off the pending index and inserts the decision
   * (unique per thread and interrupt) with its calibration labels; when the row is gone, says who
   * decided it, if anyone did (and records nothing).
   */
  recordDecision(
    decision: NewDecision,
    labels?: readonly CalibrationLabel[],
  ): Promise<RecordDecisionResult>;
  /** Adds calibration labels; a label already there (same decision and criterion) is kept as is. */
  addCalibrationLabels(labels: readonly CalibrationLabel[]): Promise<void>;
  /**
   * Calibration labels by decision time, oldest first, one keyset page (see CalibrationLabelQuery):
   * read from their own indexed table, never from the checkpoints.
   */
  calibrationLabels(query?: CalibrationLabelQuery): Promise<CalibrationLabel[]>;
  /** A criterion's reviewer corrections decided before a time, newest first (few-shot examples). */
  correctionLabels(query: CorrectionLabelQuery): Promise<CalibrationLabel[]>;
  /** Keeps one `calibrate --compare` measurement (its figures) under a new id, and returns it. */
  recordCalibrationMeasurement(
    measurement: NewCalibrationMeasurement,
  ): Promise<CalibrationMeasurement>;
  /** The measurement taken last (by measuredAt), or undefined when none was recorded. */
  latestCalibrationMeasurement(): Promise<CalibrationMeasurement | undefined>;
  /** The calibration labels of one thread, oldest decision first. */
  labelsFor(threadId: string): Promise<CalibrationLabel[]>;
  decisionFor(threadId: string, interruptId: string): Promise<DecisionRow | undefined>;
  decisionsOf(threadId: string): Promise<DecisionRow[]>;
  unappliedDecisions(threadId: string): Promise<DecisionRow[]>;
  settleThread(threadId: string, settlement: ThreadSettlement): Promise<SettleOutcome>;
  /**
   * In one transaction, only when the thread failed: queues it again and removes the decisions the
   * graph refused (their interrupts can be decided anew), with an event naming who retried. False
   * when the thread is not failed (another caller retried it first, or it never failed).
   */
  retryThread(threadId: string, by: string): Promise<boolean>;

  addEvent(threadId: string, event: NewEvent): Promise<void>;
  eventsAfter(threadId: string, afterSeq: number, limit: number): Promise<ThreadEvent[]>;

  /**
   * The review desk's threads a job must look at, untouched since `updatedBefore`: queued or
   * running, or not failed with a decision not yet applied.
   */
  threadsNeedingWork(updatedBefore: string): Promise<string[]>;
  /**
   * Counts one attempt under `key` (a sign-in or a token tried, by client address or account) in a
   * window of `windowSeconds` that starts with the first attempt: every replica counts in the same
   * rows. The count so far in the window, and when it ends.
   */
  countAttempt(key: string, windowSeconds: number, at: Date): Promise<AttemptCount>;
  /** The attempts counted under `key` in a window still open at `at` (undefined: none). */
  attemptsOf(key: string, at: Date): Promise<AttemptCount | undefined>;
  /** The thread's lock, or undefined when another job (in any process) holds it. */
  tryLockThread(threadId: string): Promise<ThreadLease | undefined>;

  ping(): Promise<boolean>;
  close(): Promise<void>;
}
