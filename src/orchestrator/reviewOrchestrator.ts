import { randomUUID } from "node:crypto";
import { BaseCheckpointSaver, Command, type StateSnapshot } from "@langchain/langgraph";
import { type DecisionRecord, type ReviewDecision, ReviewDecisionSchema } from "../graph/model.js";
import { refusedAction } from "../graph/reviewNode.js";
import { threadProgress } from "../graph/threadProgress.js";
import type { ReviewStore } from "../store/types.js";
import { labelsOfReviewDecision } from "./calibrationLabels.js";
import { type Checkpointer, type CheckpointerOptions, createCheckpointer } from "./checkpointer.js";
import { type RunPolicy, runPolicy } from "./checkpointRetention.js";
import {
  ForeignThreadError,
  InterruptMismatchError,
  InvalidDecisionError,
  threadExists,
  threadNotFound,
} from "./errors.js";
import type {
  GraphInput,
  GraphState,
  ReviewGraphBuilder,
  ReviewOrchestratorOptions,
  ThreadOutcome,
} from "./graphTypes.js";
import {
  type OrchestratorRuntime,
  outcomeOf,
  type RunSteps,
  runThread,
} from "./orchestratorRun.js";
import { type PendingReview, reviewsOf } from "./pendingReview.js";
import {
  checkedInterruptId,
  checkedThreadId,
  issuesOf,
  notPausedError,
  reviewHistoryOf,
  throwIfRefused,
} from "./snapshotChecks.js";
import {
  graphKeyOf,
  indexThread,
  openIndexStore,
  type PendingPage,
  pendingFromIndex,
} from "./threadIndex.js";
import { ThreadLocks } from "./threadLock.js";
import { foreignChannels, listThreads } from "./threads.js";

export type { ReviewOrchestratorOptions, ThreadOutcome } from "./graphTypes.js";

type Runtime = OrchestratorRuntime;

function isCheckpointer(value: BaseCheckpointSaver | Checkpointer): value is Checkpointer {
  return !(value instanceof BaseCheckpointSaver) && "saver" in value;
}

/**
 * Runs review threads of a graph that pauses for reviewers: starts them, lists the threads
 * waiting for a decision, and resumes exactly the interrupt a decision was made for, one step at
 * a time per thread across processes (the store's thread lock, as the review desk takes it). It
 * checks what LangGraph leaves unchecked (resuming an unknown, finished or differently paused
 * thread does nothing) and validates the decision first. Threads survive a restart.
 * @example
 * const { threadId, review } = await new ReviewOrchestrator({ graph }).start({ content });
 */
export class ReviewOrchestrator<G extends ReviewGraphBuilder> {
  private readonly builder: G;
  private readonly policy: RunPolicy;
  private readonly given: BaseCheckpointSaver | Checkpointer | undefined;
  private readonly checkpointerOptions: CheckpointerOptions | undefined;
  private runtimePromise: Promise<Runtime> | undefined;
  private owned: Checkpointer | undefined;
  private readonly givenStore: ReviewStore | undefined;
  private storePromise: Promise<ReviewStore> | undefined;
  private readonly lock = new ThreadLocks(() => this.store());

  constructor(options: ReviewOrchestratorOptions<G>) {
    this.builder = options.graph;
    this.policy = runPolicy(options);
    this.given = options.checkpointer;
    this.checkpointerOptions = options.checkpointerOptions;
    this.givenStore = options.store;
    if (this.given !== undefined) {
      const saver = isCheckpointer(this.given) ? this.given.saver : this.given;
      this.runtimePromise = Promise.resolve(this.compile(saver));
    }
  }

  private compile(saver: BaseCheckpointSaver): Runtime {
    const graph = this.builder.compile({ checkpointer: saver });
    return { graph, saver, graphKey: graphKeyOf(graph.channels) };
  }

  /** The store of the pending-review index, opened on first use beside the checkpoints. */
  private async store(): Promise<ReviewStore> {
    if (this.givenStore !== undefined) return this.givenStore;
    const runtime = await this.runtime();
    this.storePromise ??= openIndexStore(this.given ?? this.owned ?? runtime.saver);
    return this.storePromise;
  }

  /** Writes where the thread stands into the pending-review index. */
  private async index(runtime: Runtime, threadId: string): Promise<StateSnapshot> {
    const snapshot = await runtime.graph.getState({ configurable: { thread_id: threadId } });
    await indexThread(await this.store(), runtime.graphKey, threadId, snapshot);
    return snapshot;
  }

  /** The compiled graph; the default checkpointer is opened on first use. */
  private runtime(): Promise<Runtime> {
    this.runtimePromise ??= createCheckpointer(this.checkpointerOptions).then((checkpointer) => {
      this.owned = checkpointer;
      return this.compile(checkpointer.saver);
    });
    return this.runtimePromise;
  }

  private async exists(runtime: Runtime, threadId: string): Promise<boolean> {
    const tuple = await runtime.saver.getTuple({ configurable: { thread_id: threadId } });
    return tuple !== undefined;
  }

  /**
   * The thread's snapshot: a CHECKPOINT_NOT_FOUND error when the checkpointer has nothing for it,
   * ForeignThreadError when another graph made it.
   */
  private async snapshot(runtime: Runtime, threadId: string): Promise<StateSnapshot> {
    const tuple = await runtime.saver.getTuple({ configurable: { thread_id: threadId } });
    if (tuple === undefined) throw threadNotFound(threadId);
    const foreign = foreignChannels(runtime.graph.channels, tuple.checkpoint);
    if (foreign.length > 0) throw new ForeignThreadError(threadId, foreign);
    return runtime.graph.getState({ configurable: { thread_id: threadId } });
  }

  /** Runs the graph on the thread with `input`, then reports where it stopped. */
  private run(runtime: Runtime, threadId: string, input: unknown) {
    return runThread<GraphState<G>>(runtime, this.steps(runtime), threadId, input);
  }

  private steps(runtime: Runtime): RunSteps {
    return { policy: this.policy, index: (threadId) => this.index(runtime, threadId) };
  }

  /**
   * Starts a thread (id: a new UUID unless given) and runs it until the first review or the end.
   * A thread id that already has state is refused (THREAD_EXISTS).
   */
  async start(
    input: GraphInput<G>,
    options: { threadId?: string } = {},
  ): Promise<ThreadOutcome<GraphState<G>>> {
    const threadId = checkedThreadId(options.threadId ?? randomUUID());
    const runtime = await this.runtime();
    return this.lock.run(threadId, async () => {
      if (await this.exists(runtime, threadId)) throw threadExists(threadId);
      return this.run(runtime, threadId, input);
    });
  }

  /**
   * The threads of this graph that wait for a review, the longest waiting first, read from the
   * pending-review index: a page (`limit`, `after` the last review of the previous page) costs one
   * index query and one checkpoint read per listed thread, however many threads the database holds.
   * @example
   * const first = await orchestrator.pendingReviews({ limit: 20 });
   * const next = await orchestrator.pendingReviews({ limit: 20, after: first.at(-1) });
   */
  async pendingReviews(page: PendingPage = {}): Promise<PendingReview[]> {
    const runtime = await this.runtime();
    const store = await this.store();
    return pendingFromIndex(store, runtime.graphKey, page, (threadId) =>
      runtime.graph.getState({ configurable: { thread_id: threadId } }),
    );
  }

  /**
   * Rebuilds the index from the checkpoints: one scan of every checkpoint, for threads started
   * before the index existed (or by a process that died between its run and its index write).
   * Returns how many threads of this graph were indexed.
   */
  async reindex(): Promise<number> {
    const runtime = await this.runtime();
    const threads = await listThreads(runtime.saver);
    const own = threads.filter(
      (t) => foreignChannels(runtime.graph.channels, t.checkpoint).length === 0,
    );
    for (const { threadId } of own) {
      await this.lock.run(threadId, () => this.index(runtime, threadId));
    }
    return own.length;
  }

  /** The review the thread waits for, or undefined when it is not paused at one. */
  async getReview(threadId: string): Promise<PendingReview | undefined> {
    checkedThreadId(threadId);
    const runtime = await this.runtime();
    const [review] = reviewsOf(threadId, await this.snapshot(runtime, threadId));
    return review;
  }

  /**
   * Runs a thread that has work left — a process died in the middle of a run, after a node
   * finished but before its writes were applied, or a node failed — on from its last checkpoint to
   * its next review or its end (`graph.invoke(null)`: nothing finished is run again). A thread
   * paused at a review or finished is reported as it is; one that never saved a checkpoint is
   * CHECKPOINT_NOT_FOUND (start it again). The outcome is judged as start's is: "completed" only
   * when nothing is left to run or apply.
   */
  async continueThread(threadId: string): Promise<ThreadOutcome<GraphState<G>>> {
    checkedThreadId(threadId);
    const runtime = await this.runtime();
    return this.lock.run(threadId, async () => {
      const snapshot = await this.snapshot(runtime, threadId);
      if (threadProgress(snapshot).kind !== "work_left") {
        await indexThread(await this.store(), runtime.graphKey, threadId, snapshot);
        return outcomeOf<GraphState<G>>(runtime, this.steps(runtime), threadId, snapshot);
      }
      return this.run(runtime, threadId, null);
    });
  }

  /**
   * Answers the review interrupt `interruptId` of the thread with the reviewer's decision and
   * runs on to the next review or the end. Checked first, in order: the decision
   * (InvalidDecisionError naming the fields), the thread (CHECKPOINT_NOT_FOUND), that it waits for
   * a review (ThreadNotPausedError) and that it waits for this one (InterruptMismatchError). A
   * decision the review refuses (an action it does not offer, revise at the revision limit) is an
   * InvalidDecisionError too (an edit that does not fit, when the review asks again); the thread
   * stays paused. Once the graph took it, the decision is kept as calibration labels.
   */
  async submitDecision(
    threadId: string,
    interruptId: string,
    decision: unknown,
  ): Promise<ThreadOutcome<GraphState<G>>> {
    checkedThreadId(threadId);
    checkedInterruptId(threadId, interruptId);
    const parsed = ReviewDecisionSchema.safeParse(decision);
    if (!parsed.success) {
      const issues = issuesOf(parsed.error) ?? [{ field: "(decision)", message: "invalid" }];
      throw new InvalidDecisionError(threadId, issues);
    }
    const valid: ReviewDecision = parsed.data;
    const runtime = await this.runtime();
    return this.lock.run(threadId, async () => {
      const snapshot = await this.snapshot(runtime, threadId);
      const reviews = reviewsOf(threadId, snapshot);
      if (reviews.length === 0) throw notPausedError(threadId, snapshot);
      const review = reviews.find((r) => r.interruptId === interruptId);
      if (review === undefined) {
        throw new InterruptMismatchError(
          threadId,
          interruptId,
          reviews.map((r) => r.interruptId),
        );
      }
      const refusal = refusedAction(review, valid.action);
      if (refusal !== undefined) {
        throw new InvalidDecisionError(threadId, [{ field: "action", message: refusal }]);
      }
      const labels = labelsOfReviewDecision(review, valid);
      const resume = new Command({ resume: { [interruptId]: valid } });
      const outcome = throwIfRefused(threadId, await this.run(runtime, threadId, resume), review);
      await (await this.store()).addCalibrationLabels(labels);
      return outcome;
    });
  }

  /** The reviewer decisions made on the thread, oldest first (who, when, what, on which evaluation). */
  async history(threadId: string): Promise<DecisionRecord[]> {
    checkedThreadId(threadId);
    const runtime = await this.runtime();
    const snapshot = await this.snapshot(runtime, threadId);
    return reviewHistoryOf(threadId, snapshot.values);
  }

  /** The thread's current state values. */
  async getState(threadId: string): Promise<GraphState<G>> {
    checkedThreadId(threadId);
    const runtime = await this.runtime();
    return (await this.snapshot(runtime, threadId)).values as GraphState<G>;
  }

  /**
   * Closes the checkpointer the orchestrator opened itself (a given one stays open); a later call
   * opens it again.
   */
  async close(): Promise<void> {
    const store = this.storePromise;
    this.storePromise = undefined;
    await (await store?.catch(() => undefined))?.close();
    const pending = this.runtimePromise;
    if (this.given !== undefined || pending === undefined) return;
    this.runtimePromise = undefined;
    await pending.catch(() => undefined);
    const owned = this.owned;
    this.owned = undefined;
    await owned?.close();
  }
}
