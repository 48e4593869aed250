/**
 * The pending-review index of a library orchestrator: the desk's store tables, its threads under a
 * graph key of their own; a listing reads one index page and one checkpoint per listed thread.
 */
import { createHash } from "node:crypto";
import type { BaseCheckpointSaver, Checkpoint, StateSnapshot } from "@langchain/langgraph";
import { databaseOfSaver } from "../graph/runSinks.js";
import { openReviewStore } from "../store/index.js";
import type { ReviewStore } from "../store/reviewStore.js";
import type { PendingCursor } from "../store/types.js";
import { type PendingReview, reviewsOf } from "./pendingReview.js";

/** The graph key of a compiled graph: its channel names, hashed (two graphs keep two lists). */
export function graphKeyOf(channels: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(channels).sort().join("\n");
  return `graph:${createHash("sha256").update(names).digest("hex").slice(0, 16)}`;
}

/** Where the checkpoints of the saver are: its SQLite file, its PostgreSQL URL, else memory. */
function locationOfSaver(saver: BaseCheckpointSaver) {
  const database = databaseOfSaver(saver);
  if (database !== undefined && "sqlite" in database)
    return { sqlitePath: database.sqlite.name || ":memory:" };
  const { options } = (database?.postgres ?? {}) as { options?: { connectionString?: unknown } };
  const url = options?.connectionString;
  if (typeof url === "string" && url !== "") return { databaseUrl: url };
  // Any other saver keeps its threads in memory: so does the index.
  return { sqlitePath: ":memory:" };
}

/** Opens the review store in the checkpoints' database (in memory beside an in-memory saver). */
export function openIndexStore(saver: BaseCheckpointSaver): Promise<ReviewStore> {
  return openReviewStore({ ...locationOfSaver(saver), env: {} });
}

export interface PendingPage {
  /** At most `limit` reviews (all of them when no limit is given), the longest waiting first. */
  limit?: number;
  /** Start after this review (the last one of the previous page). */
  after?: Pick<PendingReview, "threadId" | "pausedAt">;
}

/**
 * The pending reviews of the graph from the index, the longest waiting first; a row whose thread has
 * moved on is left out.
 */
export async function pendingFromIndex(
  store: ReviewStore,
  graphKey: string,
  page: PendingPage,
  snapshotOf: (threadId: string) => Promise<StateSnapshot>,
): Promise<PendingReview[]> {
  const found: PendingReview[] = [];
  const pageSize = Math.min(page.limit ?? 200, 200);
  let after: PendingCursor | undefined =
    page.after === undefined
      ? undefined
      : { createdAt: page.after.pausedAt ?? "", threadId: page.after.threadId };
  for (;;) {
    const rows = await store.listPending({
      graph: graphKey,
      limit: pageSize,
      oldestFirst: true,
      ...(after === undefined ? {} : { after }),
    });
    const threadIds = [...new Set(rows.map((r) => r.threadId))];
    const snapshots = await Promise.all(threadIds.map((id) => snapshotOf(id)));
    const reviews = threadIds.flatMap((id, i) => reviewsOf(id, snapshots[i] as StateSnapshot));
    for (const row of rows) {
      const review = reviews.find(
        (r) => r.threadId === row.threadId && r.interruptId === row.interruptId,
      );
      if (review !== undefined) found.push({ ...review, pausedAt: row.createdAt });
    }
    const last = rows[rows.length - 1];
    if (rows.length < pageSize || last === undefined) break;
    if (page.limit !== undefined && found.length >= page.limit) break;
    after = { createdAt: last.createdAt, threadId: last.threadId };
  }
  return page.limit === undefined ? found : found.slice(0, page.limit);
}

interface StoredThread {
  threadId: string;
  checkpoint: Checkpoint;
}

/**
 * Every thread the saver holds, with its latest top-level checkpoint, most recently active first
 * (through the saver's list: any LangGraph checkpointer).
 */
export async function listThreads(saver: BaseCheckpointSaver): Promise<StoredThread[]> {
  const latest = new Map<string, Checkpoint>();
  for await (const tuple of saver.list({})) {
    const threadId: unknown = tuple.config.configurable?.thread_id;
    const namespace: unknown = tuple.config.configurable?.checkpoint_ns;
    if (typeof threadId !== "string" || threadId === "") continue;
    if (namespace !== undefined && namespace !== "") continue;
    const known = latest.get(threadId);
    // Checkpoint ids are time-ordered (UUID v6): the greatest is the newest.
    if (known === undefined || tuple.checkpoint.id > known.id)
      latest.set(threadId, tuple.checkpoint);
  }
  return [...latest]
    .map(([threadId, checkpoint]) => ({ threadId, checkpoint }))
    .sort((a, b) => b.checkpoint.id.localeCompare(a.checkpoint.id));
}

/** The channels a checkpoint has that the graph lacks: another graph's thread on a shared checkpointer. */
export function foreignChannels(
  graphChannels: Readonly<Record<string, unknown>>,
  checkpoint: Checkpoint,
): string[] {
  return Object.keys(checkpoint.channel_versions).filter((name) => !(name in graphChannels));
}
