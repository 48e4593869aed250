/**
 * The thread engine as a ReviewOrchestrator uses it: the caller's graph compiled on the
 * checkpoints, the review store beside them (its locks, its index, its decisions), and the engine's
 * runner (threadRunner.ts), the one that advances the desk's threads too. The orchestrator's
 * threads are kept in the store under a graph key of their own.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ExtractStateType,
  type ExtractUpdateType,
  isInvalidResume,
  type StateGraph,
  type StateSnapshot,
} from "@langchain/langgraph";
import { isReviewResumeInvalidError } from "../graph/errors.js";
import type { DecisionRecord, InterruptMetadata } from "../graph/model.js";
import type { EvaluationContext } from "../graph/state.js";
import { threadProgress } from "../graph/threadProgress.js";
import type { ReviewStore } from "../store/reviewStore.js";
import { type Checkpointer, type CheckpointerOptions, createCheckpointer } from "./checkpointer.js";
import { type CheckpointRetention, retentionFromEnv } from "./checkpointRetention.js";
import {
  ForeignThreadError,
  InvalidDecisionError,
  OrchestratorError,
  threadNotFound,
} from "./errors.js";
import { type PendingReview, reviewsOf } from "./pendingReview.js";
import { issuesOf } from "./snapshotChecks.js";
import { foreignChannels, graphKeyOf, openIndexStore } from "./threadIndex.js";
import { createThreadRunner, type ThreadRunner } from "./threadRunner.js";
import type { ThreadRuntime } from "./threadSettle.js";

/** The HITL fields of OverallProposalState a graph needs for the orchestrator to review it. */
export interface ReviewFields {
  reviewHistory: DecisionRecord[];
  isInterrupted: boolean;
  interruptMetadata?: InterruptMetadata | null;
}

/** What the orchestrator uses of a compiled graph. */
export interface ReviewGraphRunnable {
  /** The compiled graph's channels (state keys and edges), to recognise its threads. */
  readonly channels: Readonly<Record<string, unknown>>;
  /** A run, streamed step by step (the thread engine records each step). */
  stream(input: unknown, options: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: RunnableConfig): Promise<StateSnapshot>;
}

/** An uncompiled graph (a StateGraph builder) the orchestrator compiles with its checkpointer. */
export interface ReviewGraphBuilder {
  compile(options: { checkpointer: BaseCheckpointSaver }): ReviewGraphRunnable;
}

/** The state type of a StateGraph builder. */
export type GraphState<G> =
  G extends StateGraph<
    infer _SD,
    infer S,
    infer _U,
    infer _N,
    infer _I,
    infer _O,
    infer _C,
    infer _R,
    infer _T,
    infer _W
  >
    ? S
    : ReviewFields & Record<string, unknown>;

/** What a StateGraph builder accepts as input (its input schema's update type). */
export type GraphInput<G> =
  G extends StateGraph<
    infer _SD,
    infer _S,
    infer _U,
    infer _N,
    infer I,
    infer _O,
    infer _C,
    infer _R,
    infer _T,
    infer _W
  >
    ? ExtractUpdateType<I, ExtractStateType<I>>
    : Record<string, unknown>;

/** The builder itself when its state has the review fields; `never` (a type error) otherwise. */
export type Reviewable<G> = GraphState<G> extends ReviewFields ? G : never;

export interface ReviewOrchestratorOptions<G extends ReviewGraphBuilder> {
  /** An uncompiled graph whose state has the review fields (reviewHistory, isInterrupted, interruptMetadata). */
  graph: G & Reviewable<G>;
  /**
   * Where the threads are kept: a LangGraph saver or an open Checkpointer (both stay the
   * caller's to close). Default: createCheckpointer(checkpointerOptions), closed by close().
   */
  checkpointer?: BaseCheckpointSaver | Checkpointer;
  /** Options for the default checkpointer. */
  checkpointerOptions?: CheckpointerOptions;
  /**
   * The run context (judge model, passing threshold, revision limit, mode), given to every run
   * and resume. A thread keeps the settings it started with: a resume with other ones is refused
   * (RUN_SETTINGS_CHANGED) unless `overrideSettings` is set.
   */
  context?: EvaluationContext;
  /** Resume threads with this context although they were started with other settings. */
  overrideSettings?: boolean;
  /**
   * `latest`: a thread that finishes is pruned to its last checkpoint (its state, decisions and
   * results stay readable). Default: EVALGATE_CHECKPOINT_RETENTION, else `all`.
   */
  retention?: CheckpointRetention;
  /**
   * Where the pending-review index is kept (the caller's to close). Default: the review store in
   * the checkpoints' database, opened on first use and closed by close().
   */
  store?: ReviewStore;
}

/** Where a thread is after start or a decision: waiting for the next review, or finished. */
export interface ThreadOutcome<S> {
  threadId: string;
  state: "paused" | "completed";
  /** The review the thread waits for (the first, when several are pending). */
  review?: PendingReview;
  /** The thread's state values now. */
  values: S;
}

/** Who the orchestrator's threads are recorded as started by. */
export const ORCHESTRATOR = "review-orchestrator";

/** The first wait before asking again for a thread another job holds, and the longest one. */
const FIRST_WAIT_MS = 20;
const LONGEST_WAIT_MS = 250;

export interface OrchestratorEngine {
  graph: ReviewGraphRunnable;
  runtime: ThreadRuntime & { graph: ReviewGraphRunnable };
  store: ReviewStore;
  runner: ThreadRunner;
  /** The key the graph's threads are kept under in the store. */
  graphKey: string;
  /** The graph's last error on a thread this process advanced (taken by the one who reports it). */
  errors: Map<string, unknown>;
}

function isCheckpointer(value: BaseCheckpointSaver | Checkpointer): value is Checkpointer {
  return !(value instanceof BaseCheckpointSaver) && "saver" in value;
}

/** Where the engine's parts come from: the options, and what was opened for them (to close). */
export interface EngineParts {
  checkpointer?: Checkpointer;
  store?: ReviewStore;
}

/** Opens what the options do not give (the checkpointer, the store) and compiles the graph. */
export async function openOrchestratorEngine<G extends ReviewGraphBuilder>(
  options: ReviewOrchestratorOptions<G>,
  opened: EngineParts,
): Promise<OrchestratorEngine> {
  const given = options.checkpointer;
  const checkpointerOptions: CheckpointerOptions | undefined = options.checkpointerOptions;
  if (given === undefined) opened.checkpointer = await createCheckpointer(checkpointerOptions);
  const where = given ?? (opened.checkpointer as Checkpointer);
  const saver = isCheckpointer(where) ? where.saver : where;
  if (options.store === undefined) opened.store = await openIndexStore(where);
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

/**
 * The thread's state (CHECKPOINT_NOT_FOUND without a checkpoint, ForeignThreadError for another
 * graph's), for the orchestrator and the desk alike.
 */
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

/** Advances the thread with the engine, waiting while another job (in any process) holds it. */
export async function advanceHere(engine: OrchestratorEngine, threadId: string): Promise<void> {
  engine.errors.delete(threadId);
  let wait = FIRST_WAIT_MS;
  while ((await engine.runner.advance(threadId)) === "busy") {
    await sleep(wait);
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
  }
}

/**
 * Registers a thread the store does not know (started before the index existed, or with an index
 * kept elsewhere) under the graph's key; true when it was new.
 */
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

/**
 * Where the thread stopped after the engine advanced it: at a review (paused), at the end
 * (completed, only when nothing is left to run or apply), or anywhere else (GRAPH_RUN_FAILED, with
 * what the engine recorded).
 */
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
  const where =
    progress.kind === "paused"
      ? `the run paused at interrupts that are not reviews (${progress.interrupts.map((i) => i.id).join(", ")})`
      : progress.kind === "work_left"
        ? `the run stopped with work left at ${progress.nodes.join(", ")} without a review`
        : "the run stopped before its first checkpoint";
  const error = thread?.status === "failed" && thread.error !== null ? thread.error : where;
  const cause = engine.errors.get(threadId);
  engine.errors.delete(threadId);
  throw new OrchestratorError(threadId, error, {
    code: "GRAPH_RUN_FAILED",
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Why the graph refused a decision the engine set aside: an invalid resume value is an
 * InvalidDecisionError naming the fields; anything else (a resume with other run settings, say)
 * the graph's failure, its error kept as the cause.
 */
export function refusalError(engine: OrchestratorEngine, threadId: string, why: string): Error {
  const error = engine.errors.get(threadId);
  engine.errors.delete(threadId);
  if (error === undefined || isInvalidResume(error) || isReviewResumeInvalidError(error)) {
    const issues = issuesOf(error) ?? [{ field: "(decision)", message: why }];
    return new InvalidDecisionError(threadId, issues, error === undefined ? {} : { cause: error });
  }
  return new OrchestratorError(threadId, why, { cause: error, code: "GRAPH_RUN_FAILED" });
}
