/** The thread engine as a ReviewOrchestrator uses it: its graph, the review store and the runner. */
import { setTimeout as sleep } from "node:timers/promises";
import {
  type BaseCheckpointSaver,
  type ExtractStateType,
  type ExtractUpdateType,
  isInvalidResume,
  type StateGraph,
  type StateSnapshot,
} from "@langchain/langgraph";
import type { DecisionRecord, InterruptMetadata } from "../graph/model.js";
import type { EvaluationContext } from "../graph/state.js";
import { describeProgress, threadProgress } from "../graph/threadProgress.js";
import type { ReviewStore } from "../store/reviewStore.js";
import { type Checkpointer, type CheckpointerOptions, createCheckpointer } from "./checkpointer.js";
import { type CheckpointRetention, retentionFromEnv } from "./checkpointRetention.js";
import {
  ForeignThreadError,
  InvalidDecisionError,
  issuesOf,
  OrchestratorError,
  threadNotFound,
} from "./errors.js";
import { type PendingReview, reviewsOf } from "./pendingReview.js";
import { foreignChannels, graphKeyOf, openIndexStore } from "./threadIndex.js";
import type { ThreadRuntime } from "./threadRun.js";
import { createThreadRunner, type ThreadRunner } from "./threadRunner.js";

export interface ReviewFields {
  reviewHistory: DecisionRecord[];
  isInterrupted: boolean;
  interruptMetadata?: InterruptMetadata | null;
}

export type ReviewGraphRunnable = ThreadRuntime["graph"] & {
  readonly channels: Readonly<Record<string, unknown>>;
};

/** An uncompiled graph (a StateGraph builder) the orchestrator compiles with its checkpointer. */
export interface ReviewGraphBuilder {
  compile(options: { checkpointer: BaseCheckpointSaver }): ReviewGraphRunnable;
}

/** The state and input types of an uncompiled graph (a StateGraph builder); loose ones otherwise. */
type GraphTypes<G> =
  G extends StateGraph<
    infer _SD,
    infer S,
    infer _U,
    infer _N,
    infer I,
    infer _O,
    infer _C,
    infer _R,
    infer _T,
    infer _W
  >
    ? { state: S; input: ExtractUpdateType<I, ExtractStateType<I>> }
    : { state: ReviewFields & Record<string, unknown>; input: Record<string, unknown> };

export type GraphState<G> = GraphTypes<G>["state"];

export type GraphInput<G> = GraphTypes<G>["input"];

export type Reviewable<G> = GraphState<G> extends ReviewFields ? G : never;

export interface ReviewOrchestratorOptions<G extends ReviewGraphBuilder> {
  /** An uncompiled graph whose state has reviewHistory, isInterrupted and interruptMetadata. */
  graph: G & Reviewable<G>;
  /** Where the threads are kept (the caller's to close). Default: createCheckpointer(checkpointerOptions). */
  checkpointer?: BaseCheckpointSaver | Checkpointer;
  checkpointerOptions?: CheckpointerOptions;
  /**
   * The run context of every run and resume; other settings than a thread's are refused
   * (RUN_SETTINGS_CHANGED) unless `overrideSettings` is set.
   */
  context?: EvaluationContext;
  overrideSettings?: boolean;
  /** `latest` prunes a finished thread to its last checkpoint. Default: EVALGATE_CHECKPOINT_RETENTION, else `all`. */
  retention?: CheckpointRetention;
  /** Where the pending-review index is kept (the caller's to close). Default: the checkpoints' database. */
  store?: ReviewStore;
}

/** Where a thread is after start or a decision: waiting for the next review, or finished. */
export interface ThreadOutcome<S> {
  threadId: string;
  state: "paused" | "completed";
  review?: PendingReview;
  values: S;
}

export const ORCHESTRATOR = "review-orchestrator";

const FIRST_WAIT_MS = 20;
const LONGEST_WAIT_MS = 250;

export interface OrchestratorEngine {
  graph: ReviewGraphRunnable;
  runtime: ThreadRuntime & { graph: ReviewGraphRunnable };
  store: ReviewStore;
  runner: ThreadRunner;
  graphKey: string;
  /** The graph's last error on a thread this process advanced (taken by the one who reports it). */
  errors: Map<string, unknown>;
}

export interface EngineParts {
  checkpointer?: Checkpointer;
  store?: ReviewStore;
}

export async function openOrchestratorEngine<G extends ReviewGraphBuilder>(
  options: ReviewOrchestratorOptions<G>,
  opened: EngineParts,
): Promise<OrchestratorEngine> {
  const given = options.checkpointer;
  if (given === undefined)
    opened.checkpointer = await createCheckpointer(options.checkpointerOptions);
  const where = given ?? (opened.checkpointer as Checkpointer);
  const saver = "saver" in where ? where.saver : where;
  if (options.store === undefined) opened.store = await openIndexStore(saver);
  const store = options.store ?? (opened.store as ReviewStore);
  const graph = options.graph.compile({ checkpointer: saver });
  const runtime: OrchestratorEngine["runtime"] = {
    graph,
    saver,
    ...(options.context === undefined ? {} : { context: options.context }),
    overrideSettings: options.overrideSettings === true,
    retention: options.retention ?? retentionFromEnv(),
    stages: [],
    onGraphError: (threadId, error) => errors.set(threadId, error),
  };
  const errors = new Map<string, unknown>();
  const runner = createThreadRunner(store, runtime);
  return { graph, runtime, store, runner, graphKey: graphKeyOf(graph.channels), errors };
}

/** The thread's state: CHECKPOINT_NOT_FOUND without a checkpoint, ForeignThreadError for another graph's. */
export async function checkedSnapshot(
  engine: { runtime: { saver: BaseCheckpointSaver; graph: ReviewGraphRunnable } },
  threadId: string,
): Promise<StateSnapshot> {
  const config = { configurable: { thread_id: threadId } };
  const tuple = await engine.runtime.saver.getTuple(config);
  if (tuple === undefined) throw threadNotFound(threadId);
  const { graph } = engine.runtime;
  const foreign = foreignChannels(graph.channels, tuple.checkpoint);
  if (foreign.length > 0) throw new ForeignThreadError(threadId, foreign);
  return graph.getState(config);
}

export async function advanceHere(engine: OrchestratorEngine, threadId: string): Promise<void> {
  engine.errors.delete(threadId);
  let wait = FIRST_WAIT_MS;
  while ((await engine.runner.advance(threadId)) === "busy") {
    await sleep(wait);
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
  }
}

export async function registerThread(
  engine: OrchestratorEngine,
  threadId: string,
  settings: { input?: Record<string, unknown> } = {},
): Promise<boolean> {
  if ((await engine.store.thread(threadId)) !== undefined) return false;
  await engine.store.createThread(
    {
      id: threadId,
      graph: engine.graphKey,
      title: threadId,
      creator: ORCHESTRATOR,
      status: "queued",
      settings,
    },
    { type: "queued", message: `started by the ${ORCHESTRATOR}` },
  );
  return true;
}

/** Where the thread stopped: at a review, at the end, or anywhere else (GRAPH_RUN_FAILED). */
export async function outcomeOf<S>(
  engine: OrchestratorEngine,
  threadId: string,
): Promise<ThreadOutcome<S>> {
  const snapshot = await engine.graph.getState({ configurable: { thread_id: threadId } });
  const values = snapshot.values as S;
  const [review] = reviewsOf(threadId, snapshot);
  if (review !== undefined) return { threadId, state: "paused", review, values };
  const progress = threadProgress(snapshot);
  if (progress.kind === "finished") return { threadId, state: "completed", values };
  const thread = await engine.store.thread(threadId);
  const where = `${describeProgress(progress)}, not at a review`;
  const error = thread?.status === "failed" && thread.error !== null ? thread.error : where;
  const cause = engine.errors.get(threadId);
  engine.errors.delete(threadId);
  throw new OrchestratorError(threadId, error, {
    code: "GRAPH_RUN_FAILED",
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Why the graph refused a decision: an invalid resume value names its fields; else the graph failed. */
export function refusalError(engine: OrchestratorEngine, threadId: string, why: string): Error {
  const error = engine.errors.get(threadId);
  engine.errors.delete(threadId);
  if (error === undefined || isInvalidResume(error)) {
    const issues = issuesOf(error) ?? [{ field: "(decision)", message: why }];
    return new InvalidDecisionError(threadId, issues, error === undefined ? {} : { cause: error });
  }
  return new OrchestratorError(threadId, why, { cause: error, code: "GRAPH_RUN_FAILED" });
}
