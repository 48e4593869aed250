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

/** The thread's checkpoints that are not the latest of their namespace (`$1`: the thread id). */
const SUPERSEDED = `checkpoint_id NOT IN (
     SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = $1 GROUP BY checkpoint_ns)`;
const SUPERSEDED_WRITES = `DELETE FROM checkpoint_writes WHERE thread_id = $1 AND ${SUPERSEDED}`;

/** PostgreSQL's channel values (checkpoint_blobs) are shared: one goes when no checkpoint names it. */
const KEEP_LATEST = [
  SUPERSEDED_WRITES,
  `DELETE FROM checkpoints WHERE thread_id = $1 AND ${SUPERSEDED}`,
  `DELETE FROM checkpoint_blobs b WHERE b.thread_id = $1 AND NOT EXISTS (
     SELECT 1 FROM checkpoints c
     WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
       AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
];

/** A PostgreSQL statement as SQLite's saver names its tables (`writes`; no blobs table). */
const forSqlite = (sql: string) =>
  sql.includes("checkpoint_blobs")
    ? []
    : [sql.replaceAll("$1", "?").replace("checkpoint_writes", "writes")];

async function deleteRows(
  saver: BaseCheckpointSaver,
  threadId: string,
  statements: readonly string[],
): Promise<number> {
  const database = databaseOfSaver(saver);
  if (database === undefined) return 0;
  if ("sqlite" in database) {
    const db = database.sqlite;
    return db.transaction(() =>
      statements
        .flatMap(forSqlite)
        .reduce((n, sql) => n + db.prepare(sql).run(threadId, threadId).changes, 0),
    )();
  }
  let removed = 0;
  for (const sql of statements) {
    removed += (await database.postgres.query(sql, [threadId])).rowCount ?? 0;
  }
  return removed;
}

/** Prunes a finished thread to its last checkpoint; returns how many rows went. Finished threads only. */
export function pruneFinishedThread(saver: BaseCheckpointSaver, threadId: string): Promise<number> {
  return deleteRows(saver, threadId, KEEP_LATEST);
}

/**
 * Drops the writes of a thread's superseded checkpoints: once the next checkpoint exists their
 * output is in it, and LangGraph reads the latest one's writes only. Never while a run is under way.
 */
export function pruneSupersededWrites(
  saver: BaseCheckpointSaver,
  threadId: string,
): Promise<number> {
  return deleteRows(saver, threadId, [SUPERSEDED_WRITES]);
}
