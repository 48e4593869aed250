/** Database rows (snake_case columns, JSON in text columns) to the store's records, checked. */
import { z } from "zod";
import { REVIEW_ACTIONS } from "../scoring/reviewAction.js";
import { parseUntrustedJson } from "../untrusted/json.js";
import { storeDataInvalid } from "./errors.js";
import { ReviewerRoleSchema, type ReviewerRow } from "./reviewers.js";
import type { ThreadEvent } from "./threadEvents.js";
import {
  ActionListSchema,
  DESK_GRAPH,
  DecisionPayloadSchema,
  type DecisionRow,
  type PendingQuery,
  type PendingRow,
  type ThreadListQuery,
  type ThreadListRow,
  type ThreadRow,
  ThreadSettingsSchema,
  ThreadStateSchema,
} from "./types.js";

const nullableText = z.string().nullable().optional();
const booleanColumn = z.union([z.boolean(), z.number()]).transform((v) => v === true || v === 1);

function jsonColumn<T extends z.ZodType>(schema: T, text: string, what: string): z.infer<T> {
  const raw = parseUntrustedJson(text, (_problem, description) =>
    storeDataInvalid(`${what} is not usable JSON: ${description}`),
  );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw storeDataInvalid(`${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function check<T extends z.ZodType>(schema: T, row: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(row);
  if (!parsed.success) throw storeDataInvalid(`${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const ReviewerColumns = z.object({
  name: z.string(),
  role: ReviewerRoleSchema,
  created_at: z.string(),
  revoked_at: nullableText,
});

export function reviewerOf(row: unknown): ReviewerRow {
  const r = check(ReviewerColumns, row, "a reviewer row");
  return { name: r.name, role: r.role, createdAt: r.created_at, revokedAt: r.revoked_at ?? null };
}

const ThreadColumns = z.object({
  id: z.string(),
  graph: z.string(),
  title: z.string(),
  creator: z.string(),
  status: ThreadStateSchema,
  created_at: z.string(),
  updated_at: z.string(),
  settings: z.string(),
  error: nullableText,
});

export function threadOf(row: unknown): ThreadRow {
  const r = check(ThreadColumns, row, "a thread row");
  return {
    id: r.id,
    graph: r.graph,
    title: r.title,
    creator: r.creator,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    settings: jsonColumn(ThreadSettingsSchema, r.settings, `thread ${r.id} settings`),
    error: r.error ?? null,
  };
}

const ThreadListColumns = z.object({
  id: z.string(),
  title: z.string(),
  status: ThreadStateSchema,
  created_at: z.string(),
  updated_at: z.string(),
});

export function threadListRowOf(row: unknown): ThreadListRow {
  const r = check(ThreadListColumns, row, "a thread row");
  return {
    id: r.id,
    title: r.title,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** One keyset page of threads in a state, last changed first (see ThreadListQuery). */
export function threadPageQuery(query: ThreadListQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  let join = "";
  if (query.reviewer !== undefined) {
    join = "JOIN assignments a ON a.thread_id = t.id AND a.reviewer = ?";
    params.push(query.reviewer);
  }
  params.push(query.status, DESK_GRAPH);
  let where = "WHERE t.status = ? AND t.graph = ?";
  if (query.after !== undefined) {
    where += " AND (t.updated_at < ? OR (t.updated_at = ? AND t.id < ?))";
    params.push(query.after.updatedAt, query.after.updatedAt, query.after.threadId);
  }
  params.push(query.limit);
  return {
    sql: `SELECT t.id, t.title, t.status, t.created_at, t.updated_at FROM threads t ${join} ${where} ORDER BY t.updated_at DESC, t.id DESC LIMIT ?`,
    params,
  };
}

const PendingColumns = z.object({
  thread_id: z.string(),
  interrupt_id: z.string(),
  stage: z.string(),
  title: z.string(),
  overall_score: z.number().nullable(),
  passed: booleanColumn.nullable(),
  actions: z.string(),
  created_at: z.string(),
  review_type: z.string(),
  verdict: nullableText,
});

export function pendingOf(row: unknown): PendingRow {
  const r = check(PendingColumns, row, "a pending review row");
  return {
    threadId: r.thread_id,
    interruptId: r.interrupt_id,
    stage: r.stage,
    title: r.title,
    overallScore: r.overall_score,
    passed: r.passed,
    actions: jsonColumn(ActionListSchema, r.actions, `review ${r.thread_id} actions`),
    createdAt: r.created_at,
    type: r.review_type,
    verdict: r.verdict ?? null,
  };
}

const DecisionColumns = z.object({
  id: z.string(),
  thread_id: z.string(),
  interrupt_id: z.string(),
  stage: z.string(),
  reviewer: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  payload: z.string(),
  decided_at: z.string(),
  applied_at: nullableText,
  refused_at: nullableText,
});

export function decisionOf(row: unknown): DecisionRow {
  const r = check(DecisionColumns, row, "a decision row");
  return {
    id: r.id,
    threadId: r.thread_id,
    interruptId: r.interrupt_id,
    stage: r.stage,
    reviewer: r.reviewer,
    action: r.action,
    payload: jsonColumn(DecisionPayloadSchema, r.payload, `decision ${r.id} payload`),
    decidedAt: r.decided_at,
    appliedAt: r.applied_at ?? null,
    refusedAt: r.refused_at ?? null,
  };
}

const EventColumns = z.object({
  seq: z.union([z.number(), z.string()]).transform(Number),
  thread_id: z.string(),
  type: z.enum(["queued", "running", "stage", "progress", "review_ready", "finished", "failed"]),
  stage: nullableText,
  message: nullableText,
  at: z.string(),
});

export function eventOf(row: unknown): ThreadEvent {
  const r = check(EventColumns, row, "a thread event row");
  const event: ThreadEvent = { seq: r.seq, threadId: r.thread_id, type: r.type, at: r.at };
  if (r.stage !== null && r.stage !== undefined) event.stage = r.stage;
  if (r.message !== null && r.message !== undefined) event.message = r.message;
  return event;
}

/** The columns of a pending row (the graph is the thread's, read in the insert). */
export const PENDING_COLUMNS =
  "thread_id, interrupt_id, stage, title, overall_score, passed, actions, created_at, review_type, verdict, graph";

/** The values of a pending row in the order of PENDING_COLUMNS, without the graph. */
export function pendingValues(p: PendingRow, booleans: "integer" | "boolean") {
  const passed = p.passed === null || booleans === "boolean" ? p.passed : p.passed ? 1 : 0;
  return [
    p.threadId,
    p.interruptId,
    p.stage,
    p.title,
    p.overallScore,
    passed,
    JSON.stringify(p.actions),
    p.createdAt,
    p.type,
    p.verdict,
  ];
}

/**
 * The query of a page of the pending-review index, with `?` placeholders in the order of
 * `params`: the graph's rows (of the reviewer's threads), in keyset order from the cursor.
 */
export function pendingPageQuery(query: PendingQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  let join = "";
  if (query.reviewer !== undefined) {
    join = "JOIN assignments a ON a.thread_id = p.thread_id AND a.reviewer = ?";
    params.push(query.reviewer);
  }
  params.push(query.graph ?? DESK_GRAPH);
  let where = "WHERE p.graph = ?";
  const beyond = query.oldestFirst === true ? ">" : "<";
  if (query.after !== undefined) {
    where += ` AND (p.created_at ${beyond} ? OR (p.created_at = ? AND p.thread_id ${beyond} ?))`;
    params.push(query.after.createdAt, query.after.createdAt, query.after.threadId);
  }
  const order = query.oldestFirst === true ? "ASC" : "DESC";
  params.push(query.limit);
  return {
    sql: `SELECT p.* FROM pending_reviews p ${join} ${where} ORDER BY p.created_at ${order}, p.thread_id ${order} LIMIT ?`,
    params,
  };
}

/** The event a retry records: who retried, and which refused decisions it set aside. */
export function retryMessage(by: string, aside: Array<{ reviewer: string; action: string }>) {
  const refused = aside.map((d) => `${d.reviewer}'s ${d.action}`).join(", ");
  return aside.length === 0
    ? `retried by ${by}`
    : `retried by ${by} (set aside the refused ${refused})`;
}
