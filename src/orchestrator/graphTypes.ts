import type { RunnableConfig } from "@langchain/core/runnables";
import type {
  BaseCheckpointSaver,
  ExtractStateType,
  ExtractUpdateType,
  StateGraph,
  StateSnapshot,
} from "@langchain/langgraph";
import type { DecisionRecord, InterruptMetadata } from "../graph/model.js";
import type { EvaluationContext } from "../graph/state.js";
import type { ReviewStore } from "../store/types.js";
import type { Checkpointer, CheckpointerOptions } from "./checkpointer.js";
import type { CheckpointRetention } from "./checkpointRetention.js";
import type { PendingReview } from "./pendingReview.js";

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
