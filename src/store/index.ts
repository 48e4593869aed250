/**
 * Opens the review store beside the checkpoints: PostgreSQL when a database URL is given (or,
 * without an explicit SQLite path, DATABASE_URL is set), otherwise SQLite in the checkpoints'
 * file (`.evalgate/checkpoints.sqlite` by default).
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import type { Trace } from "../scoring/result.js";
import { storeOpenFailed } from "./errors.js";
import {
  type ClosableJudgeCacheStore,
  PostgresJudgeCacheStore,
  SqliteJudgeCacheStore,
} from "./judgeCacheStore.js";
import { type DatabaseOptions, databaseLocation } from "./location.js";
import { surviveConnectionLoss } from "./poolErrors.js";
import { PostgresReviewStore } from "./postgresStore.js";
import { SqliteReviewStore } from "./sqliteStore.js";
import { SqliteTraceStore, type TraceQuery } from "./traceStore.js";
import { PostgresTraceStore } from "./traceStorePostgres.js";
import type { ReviewStore } from "./types.js";

export async function openReviewStore(options: DatabaseOptions = {}): Promise<ReviewStore> {
  const location = databaseLocation(options);
  if (location.kind === "postgres") return PostgresReviewStore.open(location.url);
  return SqliteReviewStore.open(location.path);
}

/**
 * The traces of an evaluation kept beside the checkpoints, read from the database the options
 * name (as databaseLocation resolves it): by `{ evaluationId }` (the result's `evaluationId`), by
 * `{ threadId }` (every evaluation of the thread, oldest first), or by an id that is either.
 *
 * @example
 * const traces = await getTraces(result.evaluationId ?? threadId, { sqlitePath: "runs.sqlite" });
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

/**
 * Opens the judge cache in the checkpoints' database, chosen as the checkpointer and the review
 * store choose it: PostgreSQL by URL (or DATABASE_URL without an explicit SQLite path), otherwise
 * the SQLite file (`.evalgate/checkpoints.sqlite` by default).
 */
export async function openJudgeCacheStore(
  options: DatabaseOptions = {},
): Promise<ClosableJudgeCacheStore> {
  const location = databaseLocation(options);
  if (location.kind === "postgres") return PostgresJudgeCacheStore.open(location.url);
  return SqliteJudgeCacheStore.open(location.path);
}

export {
  isStoreError,
  ReviewerExistsError,
  StoreDataError,
  StoreError,
  type StoreErrorCode,
  StoreOpenError,
} from "./errors.js";
export {
  type ClosableJudgeCacheStore,
  PostgresJudgeCacheStore,
  SqliteJudgeCacheStore,
} from "./judgeCacheStore.js";
export {
  type DatabaseLocation,
  type DatabaseOptions,
  DEFAULT_SQLITE_PATH,
  databaseLocation,
} from "./location.js";
export * from "./reviewers.js";
export * from "./threadEvents.js";
export type { ThreadLease } from "./threadLocks.js";
export { hashToken, newReviewerToken } from "./tokens.js";
export {
  type EvaluationTraces,
  SqliteTraceStore,
  type TraceQuery,
  type TraceStore,
} from "./traceStore.js";
export { PostgresTraceStore } from "./traceStorePostgres.js";
export * from "./types.js";
