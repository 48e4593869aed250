/** Database rows (snake_case columns, JSON in text columns) to the store's records, checked. */
import { sql } from "kysely";
import { z } from "zod";
import { rowReader } from "./database.js";
import { ReviewerRowSchema } from "./reviewers.js";
import { ThreadEventSchema } from "./threadEvents.js";
import {
  DESK_GRAPH,
  DecisionRowSchema,
  type PendingQuery,
  type PendingRow,
  PendingRowSchema,
  type ThreadListQuery,
  ThreadListRowSchema,
  ThreadRowSchema,
} from "./types.js";

export const threadOf = rowReader(ThreadRowSchema, "a thread row", { json: ["settings"] });
export const threadListRowOf = rowReader(ThreadListRowSchema, "a thread row");
export const decisionOf = rowReader(DecisionRowSchema, "a decision row", { json: ["payload"] });
export const pendingOf = rowReader(PendingRowSchema, "a pending review row", {
  json: ["actions"],
  renamed: { review_type: "type" },
});

export function threadPageQuery(query: ThreadListQuery) {
  const { reviewer, after } = query;
  return sql`SELECT t.id, t.title, t.status, t.created_at, t.updated_at FROM threads t
    ${reviewer === undefined ? sql`` : sql`JOIN assignments a ON a.thread_id = t.id AND a.reviewer = ${reviewer}`}
    WHERE t.status = ${query.status} AND t.graph = ${DESK_GRAPH}
    ${after === undefined ? sql`` : sql`AND (t.updated_at < ${after.updatedAt} OR (t.updated_at = ${after.updatedAt} AND t.id < ${after.threadId}))`}
    ORDER BY t.updated_at DESC, t.id DESC LIMIT ${query.limit}`;
}

/** The graph of a pending review is its thread's. */
export function pendingInsert(p: PendingRow, bool: (value: boolean) => boolean | number) {
  const passed = p.passed === null ? null : bool(p.passed);
  return sql`INSERT INTO pending_reviews (thread_id, interrupt_id, stage, title, overall_score,
      passed, actions, created_at, review_type, verdict, graph)
    VALUES (${p.threadId}, ${p.interruptId}, ${p.stage}, ${p.title}, ${p.overallScore}, ${passed},
      ${JSON.stringify(p.actions)}, ${p.createdAt}, ${p.type}, ${p.verdict},
      (SELECT graph FROM threads WHERE id = ${p.threadId}))`;
}

export function pendingPageQuery(query: PendingQuery) {
  const { reviewer, after } = query;
  const order = sql.raw(query.oldestFirst === true ? "ASC" : "DESC");
  const beyond = sql.raw(query.oldestFirst === true ? ">" : "<");
  return sql`SELECT p.* FROM pending_reviews p
    ${reviewer === undefined ? sql`` : sql`JOIN assignments a ON a.thread_id = p.thread_id AND a.reviewer = ${reviewer}`}
    WHERE p.graph = ${query.graph ?? DESK_GRAPH}
    ${after === undefined ? sql`` : sql`AND (p.created_at ${beyond} ${after.createdAt} OR (p.created_at = ${after.createdAt} AND p.thread_id ${beyond} ${after.threadId}))`}
    ORDER BY p.created_at ${order}, p.thread_id ${order} LIMIT ${query.limit}`;
}

export function retryMessage(by: string, aside: Array<{ reviewer: string; action: string }>) {
  const refused = aside.map((d) => `${d.reviewer}'s ${d.action}`).join(", ");
  return aside.length === 0
    ? `retried by ${by}`
    : `retried by ${by} (set aside the refused ${refused})`;
}

export const reviewerOf = rowReader(ReviewerRowSchema, "a reviewer row");

const withoutNulls = (fields: unknown) =>
  Object.fromEntries(Object.entries(fields as object).filter(([, value]) => value !== null));

export const eventOf = rowReader(
  z.preprocess(withoutNulls, ThreadEventSchema.extend({ seq: z.coerce.number().int() })),
  "a thread event row",
);
