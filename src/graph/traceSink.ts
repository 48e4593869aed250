/**
 * Where an evaluation node keeps its traces: in a trace store beside the thread's checkpoints
 * (the checkpointer's own SQLite file or PostgreSQL pool), so the result in state holds only
 * their ids. A graph with an in-memory checkpointer, or none, keeps the traces in the result.
 */
import { randomUUID } from "node:crypto";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type Database from "better-sqlite3";
import type pg from "pg";
import type { EvaluationResult } from "../scoring/result.js";
import { SqliteTraceStore, type TraceStore } from "../store/traceStore.js";
import { PostgresTraceStore } from "../store/traceStorePostgres.js";

/** Where traces go: a store, `inline` (kept in the result), or the checkpointer's database. */
export type TraceDestination = TraceStore | "inline" | "checkpointer";

const CHECKPOINTER_KEY = "__pregel_checkpointer";
const stores = new WeakMap<object, TraceStore | null>();

function hasMethod(value: unknown, method: string): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>)[method] === "function"
  );
}

/** A trace store on the saver's database (SQLite `db` or PostgreSQL `pool`), when it has one. */
export function traceStoreOfSaver(saver: unknown): TraceStore | undefined {
  if (typeof saver !== "object" || saver === null) return undefined;
  const known = stores.get(saver);
  if (known !== undefined) return known ?? undefined;
  const { db, pool } = saver as { db?: unknown; pool?: unknown };
  let store: TraceStore | null = null;
  if (hasMethod(db, "prepare") && hasMethod(db, "exec")) {
    store = new SqliteTraceStore(db as Database.Database);
  } else if (hasMethod(pool, "query") && hasMethod(pool, "connect")) {
    store = new PostgresTraceStore(pool as pg.Pool);
  }
  stores.set(saver, store);
  return store ?? undefined;
}

/** The store a node's traces go to under this run, or undefined to keep them in the result. */
export function traceStoreFor(
  destination: TraceDestination | undefined,
  config: LangGraphRunnableConfig | undefined,
): TraceStore | undefined {
  if (destination === "inline") return undefined;
  if (destination !== undefined && destination !== "checkpointer") return destination;
  return traceStoreOfSaver(config?.configurable?.[CHECKPOINTER_KEY]);
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
