import { randomUUID } from "node:crypto";
import {
  BaseCheckpointSaver,
  Command,
  isInvalidResume,
  type StateSnapshot,
} from "@langchain/langgraph";
import { type DecisionRecord, type ReviewDecision, ReviewDecisionSchema } from "../graph/model.js";
import { refusedAction } from "../graph/reviewNode.js";
import type { EvaluationContext } from "../graph/state.js";
import { type Checkpointer, type CheckpointerOptions, createCheckpointer } from "./checkpointer.js";
import {
  ForeignThreadError,
  GraphRunError,
  InterruptMismatchError,
  InvalidDecisionError,
  InvalidThreadIdError,
  ThreadExistsError,
  ThreadNotFoundError,
} from "./errors.js";
import type {
  GraphInput,
  GraphState,
  Reviewable,
  ReviewGraphBuilder,
  ReviewGraphRunnable,
  ThreadRunConfig,
} from "./graphTypes.js";
import { type PendingReview, pausedInterrupts, reviewsOf } from "./pendingReview.js";
import { issuesOf, notPausedError, reviewHistoryOf } from "./snapshotChecks.js";
import { KeyedLock } from "./threadLock.js";
import { foreignChannels, listThreads } from "./threads.js";

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
   * and resume. LangGraph does not store it with the thread: give a restarted orchestrator the same.
   */
  context?: EvaluationContext;
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

interface Runtime {
  graph: ReviewGraphRunnable;
  saver: BaseCheckpointSaver;
}

function isCheckpointer(value: BaseCheckpointSaver | Checkpointer): value is Checkpointer {
  return !(value instanceof BaseCheckpointSaver) && "saver" in value;
}

/**
 * Runs review threads of a graph that pauses for reviewers (the evaluation gate, the proposal
 * graph): starts them, lists the threads waiting for a decision across the whole checkpointer,
 * and resumes exactly the interrupt a decision was made for. It checks what LangGraph leaves
 * unchecked — resuming an unknown, finished or differently paused thread would silently do
 * nothing — and validates the decision before the graph sees it. Threads survive a restart: a
 * new orchestrator on the same checkpointer finds and resumes them.
 * @example
 * const { threadId, review } = await new ReviewOrchestrator({ graph }).start({ content });
 */
export class ReviewOrchestrator<G extends ReviewGraphBuilder> {
  private readonly builder: G;
  private readonly context: EvaluationContext | undefined;
  private readonly given: BaseCheckpointSaver | Checkpointer | undefined;
  private readonly checkpointerOptions: CheckpointerOptions | undefined;
  private runtimePromise: Promise<Runtime> | undefined;
  private owned: Checkpointer | undefined;
  private readonly lock = new KeyedLock();

  constructor(options: ReviewOrchestratorOptions<G>) {
    this.builder = options.graph;
    this.context = options.context;
    this.given = options.checkpointer;
    this.checkpointerOptions = options.checkpointerOptions;
    if (this.given !== undefined) {
      const saver = isCheckpointer(this.given) ? this.given.saver : this.given;
      this.runtimePromise = Promise.resolve(this.compile(saver));
    }
  }

  private compile(saver: BaseCheckpointSaver): Runtime {
    return { graph: this.builder.compile({ checkpointer: saver }), saver };
  }

  /** The compiled graph; the default checkpointer is opened on first use. */
  private runtime(): Promise<Runtime> {
    this.runtimePromise ??= createCheckpointer(this.checkpointerOptions).then((checkpointer) => {
      this.owned = checkpointer;
      return this.compile(checkpointer.saver);
    });
    return this.runtimePromise;
  }

  private config(threadId: string): ThreadRunConfig {
    const configurable = { thread_id: threadId };
    return this.context === undefined ? { configurable } : { configurable, context: this.context };
  }

  private async exists(runtime: Runtime, threadId: string): Promise<boolean> {
    const tuple = await runtime.saver.getTuple({ configurable: { thread_id: threadId } });
    return tuple !== undefined;
  }

  /**
   * The thread's snapshot: ThreadNotFoundError when the checkpointer has nothing for it,
   * ForeignThreadError when another graph made it.
   */
  private async snapshot(runtime: Runtime, threadId: string): Promise<StateSnapshot> {
    const tuple = await runtime.saver.getTuple({ configurable: { thread_id: threadId } });
    if (tuple === undefined) throw new ThreadNotFoundError(threadId);
    const foreign = foreignChannels(runtime.graph.channels, tuple.checkpoint);
    if (foreign.length > 0) throw new ForeignThreadError(threadId, foreign);
    return runtime.graph.getState({ configurable: { thread_id: threadId } });
  }

  /** Runs the graph on the thread, then reports where it stopped. */
  private async run(
    runtime: Runtime,
    threadId: string,
    input: unknown,
  ): Promise<ThreadOutcome<GraphState<G>>> {
    try {
      await runtime.graph.invoke(input, this.config(threadId));
    } catch (error) {
      if (isInvalidResume(error)) {
        const message = error instanceof Error ? error.message : String(error);
        const issues = issuesOf(error) ?? [{ field: "(decision)", message }];
        throw new InvalidDecisionError(threadId, issues, { cause: error });
      }
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new GraphRunError(threadId, `the graph failed: ${message}`, { cause: error });
    }
    const snapshot = await runtime.graph.getState({ configurable: { thread_id: threadId } });
    const values = snapshot.values as GraphState<G>;
    const [review] = reviewsOf(threadId, snapshot);
    if (review !== undefined) return { threadId, state: "paused", review, values };
    if (snapshot.next.length === 0) return { threadId, state: "completed", values };
    const interrupts = pausedInterrupts(snapshot).map((i) => i.id);
    const where =
      interrupts.length > 0
        ? `paused at interrupts that are not reviews (${interrupts.join(", ")})`
        : `stopped before ${snapshot.next.join(", ")} without a review`;
    throw new GraphRunError(threadId, `the run ${where}`);
  }

  /**
   * Starts a thread (id: a new UUID unless given) and runs it until the first review or the end.
   * A thread id that already has state is refused (ThreadExistsError).
   */
  async start(
    input: GraphInput<G>,
    options: { threadId?: string } = {},
  ): Promise<ThreadOutcome<GraphState<G>>> {
    const threadId = options.threadId ?? randomUUID();
    if (threadId.trim() === "") throw new InvalidThreadIdError(threadId);
    const runtime = await this.runtime();
    return this.lock.run(threadId, async () => {
      if (await this.exists(runtime, threadId)) throw new ThreadExistsError(threadId);
      return this.run(runtime, threadId, input);
    });
  }

  /**
   * Every thread of this graph in the checkpointer that waits for a review, the longest waiting
   * first (threads other graphs made in the same checkpointer are left out).
   */
  async pendingReviews(): Promise<PendingReview[]> {
    const runtime = await this.runtime();
    const threads = await listThreads(runtime.saver);
    const threadIds = threads
      .filter((t) => foreignChannels(runtime.graph.channels, t.checkpoint).length === 0)
      .map((t) => t.threadId);
    const perThread = await Promise.all(
      threadIds.map(async (threadId) =>
        reviewsOf(
          threadId,
          await runtime.graph.getState({ configurable: { thread_id: threadId } }),
        ),
      ),
    );
    return perThread.flat().sort((a, b) => (a.pausedAt ?? "").localeCompare(b.pausedAt ?? ""));
  }

  /** The review the thread waits for, or undefined when it is not paused at one. */
  async getReview(threadId: string): Promise<PendingReview | undefined> {
    const runtime = await this.runtime();
    const [review] = reviewsOf(threadId, await this.snapshot(runtime, threadId));
    return review;
  }

  /**
   * Answers the review interrupt `interruptId` of the thread with the reviewer's decision and
   * runs on to the next review or the end. Checked first, in order: the decision
   * (InvalidDecisionError naming the fields), the thread (ThreadNotFoundError), that it waits for
   * a review (ThreadNotPausedError) and that it waits for this one (InterruptMismatchError). A
   * decision the review refuses (an action it does not offer, revise at the revision limit) is an
   * InvalidDecisionError too, found before the graph runs; the thread then stays paused.
   */
  async submitDecision(
    threadId: string,
    interruptId: string,
    decision: unknown,
  ): Promise<ThreadOutcome<GraphState<G>>> {
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
      return this.run(runtime, threadId, new Command({ resume: { [interruptId]: valid } }));
    });
  }

  /** The reviewer decisions made on the thread, oldest first (who, when, what, on which evaluation). */
  async history(threadId: string): Promise<DecisionRecord[]> {
    const runtime = await this.runtime();
    const snapshot = await this.snapshot(runtime, threadId);
    return reviewHistoryOf(threadId, snapshot.values);
  }

  /** The thread's current state values. */
  async getState(threadId: string): Promise<GraphState<G>> {
    const runtime = await this.runtime();
    return (await this.snapshot(runtime, threadId)).values as GraphState<G>;
  }

  /**
   * Closes the checkpointer the orchestrator opened itself (a given one stays open); a later call
   * opens it again.
   */
  async close(): Promise<void> {
    const pending = this.runtimePromise;
    if (this.given !== undefined || pending === undefined) return;
    this.runtimePromise = undefined;
    await pending.catch(() => undefined);
    const owned = this.owned;
    this.owned = undefined;
    await owned?.close();
  }
}
