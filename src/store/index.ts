/** The stores beside the checkpoints, in the database databaseLocation chooses. */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import type { Trace } from "../scoring/result.js";
import { surviveConnectionLoss } from "./connections.js";
import { storeOpenFailed } from "./errors.js";
import {
  type ClosableJudgeCacheStore,
  PostgresJudgeCacheStore,
  SqliteJudgeCacheStore,
} from "./judgeCacheStore.js";
import { type DatabaseOptions, databaseLocation } from "./location.js";
import type { ReviewStore } from "./reviewStore.js";
import { PostgresReviewStore, SqliteReviewStore } from "./reviewStore.js";
import { PostgresTraceStore, SqliteTraceStore, type TraceQuery } from "./traceStore.js";

/** Opens the review store beside the checkpoints. */
export async function openReviewStore(options: DatabaseOptions = {}): Promise<ReviewStore> {
  const location = databaseLocation(options);
  if (location.kind === "postgres") return PostgresReviewStore.open(location.url);
  return SqliteReviewStore.open(location.path);
}

/**
 * The traces kept beside the checkpoints: of one evaluation, of every evaluation of a thread, or
 * by an id that is either.
 */
export async function getTraces(
  query: TraceQuery | string,
  options: DatabaseOptions = {},
): Promise<Trace[]> {
  const location = databaseLocation(options);
  const read = async (store: SqliteTraceStore | PostgresTraceStore) => {
    if (typeof query !== "string") return store.getTraces(query);
    const byEvaluation = await store.getTraces({ evaluationId: query });
    return byEvaluation.length > 0 ? byEvaluation : store.getTraces({ threadId: query });
  };
  if (location.kind === "postgres") {
    const pool = surviveConnectionLoss(new pg.Pool({ connectionString: location.url, max: 1 }));
    try {
      return await read(new PostgresTraceStore(pool));
    } finally {
      await pool.end();
    }
  }
  if (location.path !== ":memory:" && !existsSync(location.path)) {
    throw storeOpenFailed(location.path, "there is no such file");
  }
  const db = new Database(location.path);
  try {
    db.pragma("busy_timeout = 10000");
    return await read(new SqliteTraceStore(db));
  } finally {
    db.close();
  }
}

/** Opens the judge cache in the checkpoints' database. */
export async function openJudgeCacheStore(
  options: DatabaseOptions = {},
): Promise<ClosableJudgeCacheStore> {
  const location = databaseLocation(options);
  if (location.kind === "postgres") return PostgresJudgeCacheStore.open(location.url);
  return SqliteJudgeCacheStore.open(location.path);
}

export {
  /** A judge cache store with close(): what openJudgeCacheStore returns. */
  type ClosableJudgeCacheStore,
  /** The judge cache in a PostgreSQL database. */
  PostgresJudgeCacheStore,
  /** The judge cache in a SQLite file (`SqliteJudgeCacheStore.open(path)`). */
  SqliteJudgeCacheStore,
} from "./judgeCacheStore.js";
export type {
  /** Which labels store.calibrationLabels reads: period, content type, page size, the cursor after. */
  CalibrationLabelQuery,
} from "./labelRows.js";
export type {
  /** The review store: threads, pending reviews, decisions (each applied once), reviewers, labels, sessions. */
  ReviewStore,
} from "./reviewStore.js";
export {
  /** The traces of evaluations in a PostgreSQL database, read by evaluation or thread. */
  PostgresTraceStore,
  /** The traces of evaluations in a SQLite database, read by evaluation or thread. */
  SqliteTraceStore,
  /** Which traces to read: those of one evaluation (`evaluationId`) or of one thread (`threadId`). */
  type TraceQuery,
} from "./traceStore.js";
export {
  /** The zod schema of the actions a pending review offers (approve, revise, edit, retry). */
  ActionListSchema,
  /** The graph id the review desk's threads carry in the store. */
  DESK_GRAPH,
  /** A decision as handed to the graph: feedback, edited content, comment (who and when are in the row). */
  type DecisionPayload,
  /** The zod schema of DecisionPayload. */
  DecisionPayloadSchema,
  /** A decision as the store keeps it: thread, interrupt, stage, reviewer, action, when decided, applied or refused. */
  type DecisionRow,
  /** A thread as the store keeps it: id, graph, title, creator, status, settings, error, when created and updated. */
  type ThreadRow,
  /** What a thread was started with: the graph input and the run settings. */
  type ThreadSettings,
  /** The zod schema of ThreadSettings. */
  ThreadSettingsSchema,
  /** Where a thread is: `queued`, `running`, `waiting`, `finished` or `failed`. */
  type ThreadState,
  /** The zod schema of ThreadState. */
  ThreadStateSchema,
} from "./types.js";
