/**
 * Where the evaluation nodes of a run keep their traces and judge answers when their options name
 * no store: a trace store and a judge cache on the checkpointer's own database (its SQLite file or
 * PostgreSQL pool). A graph evalgate builds finds them when it is compiled with such a
 * checkpointer and hands them to its nodes through each run's config, under RUN_SINKS_KEY (a
 * caller may set that key itself). A graph on an in-memory checkpointer, or none, has none: its
 * traces stay in the result and it has no cache unless one is given. With the judge cache on the
 * database, every usable answer is on file as soon as it is known, so a run killed in the middle
 * of an evaluation is resumed with only the criteria still to judge.
 */
import { randomUUID } from "node:crypto";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type Database from "better-sqlite3";
import type pg from "pg";
import type { JudgeCacheSetting, JudgeCacheStore } from "../engine/judgeCache.js";
import type { EvaluationResult } from "../scoring/result.js";
import { PostgresJudgeCacheStore, SqliteJudgeCacheStore } from "../store/judgeCacheStore.js";
import { PostgresTraceStore, SqliteTraceStore, type TraceStore } from "../store/traceStore.js";

/** The key of a run's `configurable` that holds its RunSinks. */
export const RUN_SINKS_KEY = "evalgate_run_sinks";

/** The stores a run's evaluation nodes write to by default. */
export interface RunSinks {
  readonly traces?: TraceStore;
  readonly judgeCache?: JudgeCacheStore;
}

type SaverDatabase = { sqlite: Database.Database } | { postgres: pg.Pool };

function hasMethod(value: unknown, method: string): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>)[method] === "function"
  );
}

/** The database under a SQLite saver (`db`) or a PostgreSQL saver (`pool`), when it has one. */
function databaseOfSaver(saver: unknown): SaverDatabase | undefined {
  if (typeof saver !== "object" || saver === null) return undefined;
  const { db, pool } = saver as { db?: unknown; pool?: unknown };
  if (hasMethod(db, "prepare") && hasMethod(db, "exec")) return { sqlite: db as Database.Database };
  if (hasMethod(pool, "query") && hasMethod(pool, "connect")) return { postgres: pool as pg.Pool };
  return undefined;
}

const sinksBySaver = new WeakMap<object, RunSinks>();

/** The trace store and judge cache on the saver's database (none for a saver without one). */
export function sinksOfSaver(saver: unknown): RunSinks {
  if (typeof saver !== "object" || saver === null) return {};
  const known = sinksBySaver.get(saver);
  if (known !== undefined) return known;
  const database = databaseOfSaver(saver);
  const sinks: RunSinks =
    database === undefined
      ? {}
      : "sqlite" in database
        ? {
            traces: new SqliteTraceStore(database.sqlite),
            judgeCache: new SqliteJudgeCacheStore(database.sqlite),
          }
        : {
            traces: new PostgresTraceStore(database.postgres),
            judgeCache: new PostgresJudgeCacheStore(database.postgres),
          };
  sinksBySaver.set(saver, sinks);
  return sinks;
}

/** A trace store on the saver's database, when it has one. */
export function traceStoreOfSaver(saver: unknown): TraceStore | undefined {
  return sinksOfSaver(saver).traces;
}

/** The sinks a run's config carries (none when it carries no RUN_SINKS_KEY). */
export function runSinksOf(
  config: { configurable?: Record<string, unknown> } | undefined,
): RunSinks {
  const sinks = config?.configurable?.[RUN_SINKS_KEY];
  return typeof sinks === "object" && sinks !== null ? (sinks as RunSinks) : {};
}

/** The run's options with the sinks in its config, unless the caller gave sinks of its own. */
export function withRunSinks<Options extends { configurable?: Record<string, unknown> }>(
  options: Options | undefined,
  sinks: RunSinks,
): Options | undefined {
  if (sinks.traces === undefined && sinks.judgeCache === undefined) return options;
  if (options?.configurable?.[RUN_SINKS_KEY] !== undefined) return options;
  return {
    ...(options ?? ({} as Options)),
    configurable: { ...options?.configurable, [RUN_SINKS_KEY]: sinks },
  };
}

/**
 * The cache an evaluation node uses under this run: `false` turns it off; a setting with a store
 * uses that store; otherwise (with the setting's TTL) the checkpointer's database, when the run
 * has one.
 */
export function judgeCacheFor(
  setting: JudgeCacheSetting | undefined,
  config: LangGraphRunnableConfig | undefined,
): JudgeCacheSetting {
  if (setting === false) return false;
  if (setting?.store !== undefined) return setting;
  const store = runSinksOf(config).judgeCache;
  return store === undefined ? false : { ...setting, store };
}

/** Where traces go: a store, `inline` (kept in the result), or the checkpointer's database. */
export type TraceDestination = TraceStore | "inline" | "checkpointer";

/** The store a node's traces go to under this run, or undefined to keep them in the result. */
export function traceStoreFor(
  destination: TraceDestination | undefined,
  config: LangGraphRunnableConfig | undefined,
): TraceStore | undefined {
  if (destination === "inline") return undefined;
  if (destination !== undefined && destination !== "checkpointer") return destination;
  return runSinksOf(config).traces;
}

/**
 * The result as it goes into state: its traces saved in the store under a fresh evaluation id
 * and replaced by their ids, the raw answers (in the traces too) left out. Without a store the
 * result is returned as it is.
 */
export async function resultForState(
  result: EvaluationResult,
  store: TraceStore | undefined,
  config: LangGraphRunnableConfig | undefined,
): Promise<EvaluationResult> {
  if (store === undefined) return result;
  const evaluationId = randomUUID();
  const threadId = config?.configurable?.thread_id;
  await store.saveTraces(
    { evaluationId, ...(typeof threadId === "string" ? { threadId } : {}) },
    result.traces,
  );
  const { rawResponse: _raw, traces, ...kept } = result;
  return { ...kept, traces: [], evaluationId, traceIds: traces.map((t) => t.id) };
}
