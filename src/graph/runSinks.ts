/**
 * Where a run's evaluation nodes keep traces and judge answers by default: a trace store and a
 * judge cache on the checkpointer's database, passed in each run's config under RUN_SINKS_KEY. With
 * the cache there, a run killed mid-evaluation resumes with only the criteria still to judge.
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

/** The database a LangGraph SQLite or PostgreSQL saver keeps its checkpoints in; none for others. */
export function databaseOfSaver(saver: unknown): SaverDatabase | undefined {
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

function runSinksOf(config: { configurable?: Record<string, unknown> } | undefined): RunSinks {
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

/** The judge cache under this run: `false` off; a setting's store; else the checkpointer's database. */
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

export function traceStoreFor(
  destination: TraceDestination | undefined,
  config: LangGraphRunnableConfig | undefined,
): TraceStore | undefined {
  if (destination === "inline") return undefined;
  if (destination !== undefined && destination !== "checkpointer") return destination;
  return runSinksOf(config).traces;
}

/** The result as it goes into state: its traces saved in the store and replaced by their ids. */
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
