/**
 * Opens the review store beside the checkpoints: PostgreSQL when a database URL is given (or,
 * without an explicit SQLite path, DATABASE_URL is set), otherwise SQLite in the checkpoints'
 * file (`.evalgate/checkpoints.sqlite` by default).
 */
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { DEFAULT_SQLITE_PATH } from "../orchestrator/checkpointer.js";
import type { Trace } from "../scoring/result.js";
import { storeOpenFailed } from "./errors.js";
import {
  type ClosableJudgeCacheStore,
  PostgresJudgeCacheStore,
  SqliteJudgeCacheStore,
} from "./judgeCacheStore.js";
import { surviveConnectionLoss } from "./poolErrors.js";
import { PostgresReviewStore } from "./postgresStore.js";
import { SqliteReviewStore } from "./sqliteStore.js";
import { SqliteTraceStore, type TraceQuery } from "./traceStore.js";
import { PostgresTraceStore } from "./traceStorePostgres.js";
import type { ReviewStore } from "./types.js";

export interface ReviewStoreOptions {
  sqlitePath?: string;
  databaseUrl?: string;
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
}

export type ReviewStoreLocation =
  | { kind: "sqlite"; path: string }
  | { kind: "postgres"; url: string };

/** Which database the options name, resolved as createCheckpointer resolves it. */
export function reviewStoreLocation(options: ReviewStoreOptions = {}): ReviewStoreLocation {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const explicitUrl = options.databaseUrl?.trim();
  if (explicitUrl !== undefined && explicitUrl !== "")
    return { kind: "postgres", url: explicitUrl };
  if (options.sqlitePath === undefined) {
    const envUrl = env.DATABASE_URL?.trim();
    if (envUrl !== undefined && envUrl !== "") return { kind: "postgres", url: envUrl };
  }
  const path = options.sqlitePath ?? DEFAULT_SQLITE_PATH;
  return {
    kind: "sqlite",
    path: path === ":memory:" || isAbsolute(path) ? path : resolve(cwd, path),
  };
}

export async function openReviewStore(options: ReviewStoreOptions = {}): Promise<ReviewStore> {
  const location = reviewStoreLocation(options);
  if (location.kind === "postgres") return PostgresReviewStore.open(location.url);
  return SqliteReviewStore.open(location.path);
}

/**
 * The traces of an evaluation kept beside the checkpoints, read from the database the options
 * name (as openReviewStore resolves it): by `{ evaluationId }` (the result's `evaluationId`), by
 * `{ threadId }` (every evaluation of the thread, oldest first), or by an id that is either.
 *
 * @example
 * const traces = await getTraces(result.evaluationId ?? threadId, { sqlitePath: "runs.sqlite" });
 */
export async function getTraces(
  query: TraceQuery | string,
  options: ReviewStoreOptions = {},
): Promise<Trace[]> {
  const location = reviewStoreLocation(options);
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
  options: ReviewStoreOptions = {},
): Promise<ClosableJudgeCacheStore> {
  const location = reviewStoreLocation(options);
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
export { hashToken, newReviewerToken } from "./tokens.js";
export {
  type EvaluationTraces,
  SqliteTraceStore,
  type TraceQuery,
  type TraceStore,
} from "./traceStore.js";
export { PostgresTraceStore } from "./traceStorePostgres.js";
export * from "./types.js";
