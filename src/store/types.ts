/** The review store's records: threads, the pending-review index, decisions, their queries. */
import { z } from "zod";
import { REVIEW_ACTIONS } from "../scoring/calibrationLabel.js";
import { BooleanColumnSchema } from "./database.js";
import type { StoredRunSettings } from "./runSettingsRows.js";
import type { NewEvent } from "./threadEvents.js";

/** The graph of the review desk's threads; a library orchestrator keeps its threads under its own. */
export const DESK_GRAPH = "review-desk";

export const ThreadStateSchema = z.enum([
  "queued",
  "running",
  "waiting",
  "finished",
  "failed",
  "stopped",
]);
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

/** A thread to record (graph DESK_GRAPH by default), its run settings written with it. */
export type NewThread = Pick<ThreadRow, "id" | "title" | "creator" | "status" | "settings"> & {
  graph?: string;
  runSettings?: StoredRunSettings;
};

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

export type RecordDecisionResult =
  | { kind: "recorded"; decision: DecisionRow }
  | { kind: "already_decided"; decision: DecisionRow }
  | { kind: "not_pending" };

export interface ThreadSettlement {
  status: ThreadState;
  error?: string | null;
  pending: PendingRow[];
  applied: string[];
  refused?: Array<{ id: string; reason: string }>;
  events: NewEvent[];
}

/**
 * `unchanged`: the stop was settled already (only the decisions' marks written); `decided`: a
 * decision on a review it would list is not applied yet (nothing written, apply it first).
 */
export type SettleOutcome = "settled" | "unchanged" | "decided";

export interface PendingCursor {
  createdAt: string;
  threadId: string;
}

export interface PendingQuery {
  graph?: string;
  /** Only the threads this reviewer is assigned to (all for admins). */
  reviewer?: string;
  limit: number;
  after?: PendingCursor;
  oldestFirst?: boolean;
}

export const ThreadListRowSchema = ThreadRowSchema.pick({
  id: true,
  title: true,
  status: true,
  createdAt: true,
  updatedAt: true,
});
export type ThreadListRow = z.infer<typeof ThreadListRowSchema>;

export interface ThreadListCursor {
  updatedAt: string;
  threadId: string;
}

export interface ThreadListQuery {
  status: ThreadState;
  /** Only the threads this reviewer is assigned to (all for admins). */
  reviewer?: string;
  limit: number;
  after?: ThreadListCursor;
}

/** A page session: the hash of its id, never the id itself. */
export interface NewSession {
  idHash: string;
  reviewer: string;
  expiresAt: string;
}
