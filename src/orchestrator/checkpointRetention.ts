/**
 * Checkpoint retention: a finished thread needs only its last checkpoint (it holds the whole state,
 * the review history and every result); paused and running threads keep theirs.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { z } from "zod";
import { databaseOfSaver } from "../graph/runSinks.js";

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
/** PostgreSQL's channel values (checkpoint_blobs) are shared: one goes when no checkpoint names it. */
const POSTGRES_KEEP_LATEST = [
  POSTGRES_SUPERSEDED_WRITES,
  `DELETE FROM checkpoints WHERE thread_id = $1 AND ${POSTGRES_SUPERSEDED}`,
  `DELETE FROM checkpoint_blobs b WHERE b.thread_id = $1 AND NOT EXISTS (
     SELECT 1 FROM checkpoints c
     WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
       AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
];

async function deleteRows(
  saver: BaseCheckpointSaver,
  threadId: string,
  sqlite: readonly string[],
  postgres: readonly string[],
): Promise<number> {
  const database = databaseOfSaver(saver);
  if (database === undefined) return 0;
  if ("sqlite" in database) {
    const db = database.sqlite;
    return db.transaction(() =>
      sqlite.reduce((n, sql) => n + db.prepare(sql).run(threadId, threadId).changes, 0),
    )();
  }
  let removed = 0;
  for (const sql of postgres) {
    removed += (await database.postgres.query(sql, [threadId])).rowCount ?? 0;
  }
  return removed;
}

/** Prunes a finished thread to its last checkpoint; returns how many rows went. Finished threads only. */
export function pruneFinishedThread(saver: BaseCheckpointSaver, threadId: string): Promise<number> {
  return deleteRows(saver, threadId, SQLITE_KEEP_LATEST, POSTGRES_KEEP_LATEST);
}

/**
 * Drops the writes of a thread's superseded checkpoints: once the next checkpoint exists their
 * output is in it, and LangGraph reads the latest one's writes only. Never while a run is under way.
 */
export function pruneSupersededWrites(
  saver: BaseCheckpointSaver,
  threadId: string,
): Promise<number> {
  return deleteRows(saver, threadId, [SQLITE_SUPERSEDED_WRITES], [POSTGRES_SUPERSEDED_WRITES]);
}
