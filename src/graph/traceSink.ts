/**
 * Where an evaluation node keeps its traces: in a trace store beside the thread's checkpoints
 * (the checkpointer's own SQLite file or PostgreSQL pool, handed to the run as its RunSinks), so
 * the result in state holds only their ids. A graph with an in-memory checkpointer, or none, keeps the traces in the result.
 */
import { randomUUID } from "node:crypto";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { EvaluationResult } from "../scoring/result.js";
import type { TraceStore } from "../store/traceStore.js";
import { runSinksOf } from "./runSinks.js";

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
