/**
 * Checkpoint retention: a finished thread needs only its last checkpoint — it holds the whole
 * state, the history of reviewer decisions (`reviewHistory`) and every stage's result — so the
 * superseded checkpoints (and their writes) before it can go. Traces stay in the trace store and
 * decisions in the review store. Paused and running threads keep their checkpoints; what a
 * paused thread loses is the writes of its superseded checkpoints (pruneSupersededWrites).
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { z } from "zod";

/** `all` keeps every checkpoint; `latest` prunes a finished thread down to its last one. */
export const CheckpointRetentionSchema = z.enum(["all", "latest"]);
export type CheckpointRetention = z.infer<typeof CheckpointRetentionSchema>;

/** The retention EVALGATE_CHECKPOINT_RETENTION names (`all` when unset or unknown). */
export function retentionFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): CheckpointRetention {
  const parsed = CheckpointRetentionSchema.safeParse(
    env.EVALGATE_CHECKPOINT_RETENTION?.trim().toLowerCase(),
  );
  return parsed.success ? parsed.data : "all";
}

interface SqliteLike {
  prepare(sql: string): { run(...args: unknown[]): { changes: number } };
  transaction<T>(work: () => T): () => T;
}
interface PoolLike {
  query(sql: string, values: unknown[]): Promise<{ rowCount: number | null }>;
}

/** The thread's checkpoints that are not the latest of their namespace. */
const SQLITE_SUPERSEDED = `checkpoint_id NOT IN (
     SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = ? GROUP BY checkpoint_ns)`;
const POSTGRES_SUPERSEDED = `checkpoint_id NOT IN (
     SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = $1 GROUP BY checkpoint_ns)`;

const SQLITE_SUPERSEDED_WRITES = `DELETE FROM writes WHERE thread_id = ? AND ${SQLITE_SUPERSEDED}`;
const POSTGRES_SUPERSEDED_WRITES = `DELETE FROM checkpoint_writes WHERE thread_id = $1 AND ${POSTGRES_SUPERSEDED}`;

const SQLITE_KEEP_LATEST = [
  SQLITE_SUPERSEDED_WRITES,
  `DELETE FROM checkpoints WHERE thread_id = ? AND ${SQLITE_SUPERSEDED}`,
];
/**
 * On PostgreSQL a checkpoint row holds only channel versions; the values are rows of
 * checkpoint_blobs, keyed by (thread, namespace, channel, version) and shared by every checkpoint
 * whose channel_versions name that version. A blob goes when no checkpoint left names it.
 */
const POSTGRES_KEEP_LATEST = [
  POSTGRES_SUPERSEDED_WRITES,
  `DELETE FROM checkpoints WHERE thread_id = $1 AND ${POSTGRES_SUPERSEDED}`,
  `DELETE FROM checkpoint_blobs b WHERE b.thread_id = $1 AND NOT EXISTS (
     SELECT 1 FROM checkpoints c
     WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
       AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
];

/** Runs deletions on the saver's database; how many rows went (0 for a saver without one). */
async function deleteRows(
  saver: BaseCheckpointSaver,
  threadId: string,
  sqlite: readonly string[],
  postgres: readonly string[],
): Promise<number> {
  const { db, pool } = saver as unknown as { db?: SqliteLike; pool?: PoolLike };
  if (db !== undefined && typeof db.prepare === "function") {
    return db.transaction(() =>
      sqlite.reduce((n, sql) => n + db.prepare(sql).run(threadId, threadId).changes, 0),
    )();
  }
  if (pool !== undefined && typeof pool.query === "function") {
    let removed = 0;
    for (const sql of postgres) removed += (await pool.query(sql, [threadId])).rowCount ?? 0;
    return removed;
  }
  return 0;
}

/**
 * Prunes a finished thread's superseded checkpoints, their writes and (PostgreSQL) the channel
 * values no checkpoint left refers to, on a SQLite or PostgreSQL saver; returns how many rows
 * went (0 for a saver without a database). Call it only for a finished thread.
 */
export function pruneFinishedThread(saver: BaseCheckpointSaver, threadId: string): Promise<number> {
  return deleteRows(saver, threadId, SQLITE_KEEP_LATEST, POSTGRES_KEEP_LATEST);
}

/**
 * Drops the writes of a thread's superseded checkpoints, whatever the retention; the checkpoints
 * stay. A write is a node's output kept beside the checkpoint it ran from, so that a run stopped
 * in the middle of a step resumes without running again the nodes that had finished; once the
 * next checkpoint exists, that output is in it (an evaluation's result is in the paused
 * checkpoint's state) and LangGraph reads the writes of the latest checkpoint only. Call it when
 * a run has ended (paused or finished), never while one is under way.
 */
export function pruneSupersededWrites(
  saver: BaseCheckpointSaver,
  threadId: string,
): Promise<number> {
  return deleteRows(saver, threadId, [SQLITE_SUPERSEDED_WRITES], [POSTGRES_SUPERSEDED_WRITES]);
}
