import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { StateSnapshot } from "@langchain/langgraph";
import { labelsOfDecision } from "../calibration/labels.js";
import { type DecisionRecord, type ReviewDecision, ReviewDecisionSchema } from "../graph/model.js";
import { refusedAction } from "../graph/reviewNode.js";
import { settleRunSettings } from "../graph/runSettings.js";
import { runContext, ThreadSettingsSchema } from "../graph/state.js";
import { checkedCorrections } from "../scoring/corrections.js";
import type { DecisionRow } from "../store/types.js";
import {
  checkedInterruptId,
  checkedThreadId,
  InterruptMismatchError,
  InvalidDecisionError,
  issuesOf,
  notPausedError,
  reviewHistoryOf,
  threadExists,
  throwIfRefused,
} from "./errors.js";
import {
  advanceHere,
  checkedSnapshot,
  type EngineParts,
  type GraphInput,
  type GraphState,
  ORCHESTRATOR,
  type OrchestratorEngine,
  openOrchestratorEngine,
  outcomeOf,
  type ReviewGraphBuilder,
  type ReviewOrchestratorOptions,
  refusalError,
  registerThread,
  type ThreadOutcome,
} from "./orchestratorEngine.js";
import { type PendingReview, reviewsOf } from "./pendingReview.js";
import { foreignChannels, listThreads, type PendingPage, pendingFromIndex } from "./threadIndex.js";
import { indexThread } from "./threadRun.js";

export type { ReviewOrchestratorOptions, ThreadOutcome } from "./orchestratorEngine.js";

/** Whether what was recorded (as JSON) is what is given again. */
function sameJson(recorded: unknown, given: unknown): boolean {
  return isDeepStrictEqual(recorded, JSON.parse(JSON.stringify(given)));
}

function parsedDecision(threadId: string, decision: unknown): ReviewDecision {
  const parsed = ReviewDecisionSchema.safeParse(decision);
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error) ?? [{ field: "(decision)", message: "invalid" }];
  throw new InvalidDecisionError(threadId, issues);
}

function reviewAnswered(threadId: string, interruptId: string, snapshot: StateSnapshot) {
  const reviews = reviewsOf(threadId, snapshot);
  if (reviews.length === 0) return notPausedError(threadId, snapshot);
  const review = reviews.find((r) => r.interruptId === interruptId);
  if (review !== undefined) return review;
  return new InterruptMismatchError(
    threadId,
    interruptId,
    reviews.map((r) => r.interruptId),
  );
}

/** Whether a recorded decision is the one given again: the same action, reviewer and fields. */
function sameDecision(recorded: DecisionRow, given: ReturnType<typeof decisionRow>): boolean {
  const { action, reviewer, payload } = given;
  return (
    recorded.refusedAt === null &&
    recorded.action === action &&
    recorded.reviewer === reviewer &&
    sameJson(recorded.payload, payload)
  );
}

/**
 * Refuses (RUN_SETTINGS_CHANGED) a decision to be run with other settings than the thread started
 * with, unless they are overridden: before it is recorded, so the thread stays at the same review.
 */
function checkRunSettings(threadId: string, snapshot: StateSnapshot, engine: OrchestratorEngine) {
  const values = snapshot.values as { threadSettings?: unknown };
  const kept = ThreadSettingsSchema.safeParse(values.threadSettings);
  if (!kept.success) return;
  const { overrideSettings } = engine.runtime;
  settleRunSettings(kept.data, {
    configurable: { thread_id: threadId, overrideSettings },
    context: runContext(engine.runtime),
  });
}

/** The calibration labels of the decision, keyed by thread and interrupt: written once. */
function labelsOf(review: PendingReview, decision: ReviewDecision) {
  const inputs = "corrections" in decision ? decision.corrections : undefined;
  const checked = checkedCorrections(review.evaluation, inputs);
  if ("issue" in checked) throw new InvalidDecisionError(review.threadId, [checked.issue]);
  const labelled = {
    decisionId: `${review.threadId}:${review.interruptId}`,
    threadId: review.threadId,
    stage: review.contentId,
    contentType: review.contentType,
    reviewer: decision.reviewer ?? "(unnamed)",
    decidedAt: new Date().toISOString(),
    action: decision.action,
    ...(decision.action === "revise" ? { feedback: decision.feedback } : {}),
  };
  return labelsOfDecision(labelled, review.evaluation, checked.corrections);
}

function decisionRow(threadId: string, review: PendingReview, decision: ReviewDecision) {
  const { action, reviewer, ...payload } = decision;
  return {
    id: randomUUID(),
    threadId,
    interruptId: review.interruptId,
    stage: review.contentId,
    reviewer: reviewer ?? "",
    action,
    payload,
    decidedAt: new Date().toISOString(),
  } satisfies Omit<DecisionRow, "appliedAt" | "refusedAt">;
}

/**
 * Runs review threads of a graph that pauses for reviewers: starts them, lists pending reviews, and
 * resumes exactly the interrupt a decision was made for, one thread step at a time across processes.
 * @example
 * const { threadId, review } = await new ReviewOrchestrator({ graph }).start({ content });
 */
export class ReviewOrchestrator<G extends ReviewGraphBuilder> {
  private readonly options: ReviewOrchestratorOptions<G>;
  private enginePromise: Promise<OrchestratorEngine> | undefined;
  private opened: EngineParts = {};

  constructor(options: ReviewOrchestratorOptions<G>) {
    this.options = options;
  }

  private engine(): Promise<OrchestratorEngine> {
    this.enginePromise ??= openOrchestratorEngine(this.options, this.opened);
    return this.enginePromise;
  }

  /** The state of a thread of this graph (its id checked first). */
  private async snapshot(threadId: string): Promise<StateSnapshot> {
    checkedThreadId(threadId);
    return checkedSnapshot(await this.engine(), threadId);
  }

  /** Starts a thread (a new UUID unless given) and runs it to its first review or the end. */
  async start(
    input: GraphInput<G>,
    options: { threadId?: string } = {},
  ): Promise<ThreadOutcome<GraphState<G>>> {
    const threadId = checkedThreadId(options.threadId ?? randomUUID());
    const engine = await this.engine();
    const saved = await engine.runtime.saver.getTuple({ configurable: { thread_id: threadId } });
    if (saved !== undefined) throw threadExists(threadId);
    const settings = { input: input as Record<string, unknown> };
    const registered = await registerThread(engine, threadId, settings).catch(() => false);
    // A start that stopped before its first checkpoint is started again with the same input.
    const recorded = registered ? undefined : await engine.store.thread(threadId);
    const again = recorded !== undefined && sameJson(recorded.settings.input, settings.input);
    if (!registered && !again) throw threadExists(threadId);
    await advanceHere(engine, threadId);
    return outcomeOf(engine, threadId);
  }

  /**
   * The threads that wait for a review, the longest waiting first, a page at a time from the index.
   * @example
   * const first = await orchestrator.pendingReviews({ limit: 20 });
   * const next = await orchestrator.pendingReviews({ limit: 20, after: first.at(-1) });
   */
  async pendingReviews(page: PendingPage = {}): Promise<PendingReview[]> {
    const engine = await this.engine();
    return pendingFromIndex(engine.store, engine.graphKey, page, (threadId) =>
      engine.graph.getState({ configurable: { thread_id: threadId } }),
    );
  }

  /** Rebuilds the index from a scan of every checkpoint, running nothing; returns how many threads. */
  async reindex(): Promise<number> {
    const engine = await this.engine();
    const threads = await listThreads(engine.runtime.saver);
    const own = threads.filter(
      (t) => foreignChannels(engine.graph.channels, t.checkpoint).length === 0,
    );
    for (const { threadId } of own) {
      await registerThread(engine, threadId);
      await indexThread(engine.store, engine.runtime, threadId);
    }
    return own.length;
  }

  /** The review the thread waits for, or undefined when it is not paused at one. */
  async getReview(threadId: string): Promise<PendingReview | undefined> {
    const [review] = reviewsOf(threadId, await this.snapshot(threadId));
    return review;
  }

  /** Runs a thread with work left (a process died, a node failed) on to its next review or end. */
  async continueThread(threadId: string): Promise<ThreadOutcome<GraphState<G>>> {
    await this.snapshot(threadId);
    const engine = await this.engine();
    await registerThread(engine, threadId);
    await advanceHere(engine, threadId);
    return outcomeOf(engine, threadId);
  }

  /**
   * Answers review interrupt `interruptId` with the decision and runs on to the next review or the
   * end. A decision the review refuses is an InvalidDecisionError and the thread stays paused; it is
   * recorded once per review and applied by the thread engine, here or by the job holding the thread.
   */
  async submitDecision(
    threadId: string,
    interruptId: string,
    decision: unknown,
  ): Promise<ThreadOutcome<GraphState<G>>> {
    checkedThreadId(threadId);
    checkedInterruptId(threadId, interruptId);
    const valid = parsedDecision(threadId, decision);
    const engine = await this.engine();
    const snapshot = await checkedSnapshot(engine, threadId);
    const review = reviewAnswered(threadId, interruptId, snapshot);
    if (review instanceof Error) throw review;
    checkRunSettings(threadId, snapshot, engine);
    const refusal = refusedAction(review, valid.action);
    if (refusal !== undefined) {
      throw new InvalidDecisionError(threadId, [{ field: "action", message: refusal }]);
    }
    const row = decisionRow(threadId, review, valid);
    const earlier = await engine.store.decisionFor(threadId, interruptId);
    if (earlier !== undefined && sameDecision(earlier, row)) {
      // The same decision again (a retry after a process died with it recorded): applied once.
      await advanceHere(engine, threadId);
      return outcomeOf(engine, threadId);
    }
    const pending = await engine.store.pendingOf(threadId);
    if (!pending.some((p) => p.interruptId === interruptId)) {
      // Not in the index yet (a thread it does not know, or one a process left unsettled).
      await registerThread(engine, threadId);
      await advanceHere(engine, threadId);
    }
    const recorded = await engine.store.recordDecision(row, labelsOf(review, valid));
    await advanceHere(engine, threadId);
    if (recorded.kind !== "recorded") {
      // Another decision took the review: where the thread went with it.
      const after = await checkedSnapshot(engine, threadId);
      const now = reviewAnswered(threadId, interruptId, after);
      throw now instanceof Error ? now : notPausedError(threadId, after);
    }
    await this.throwIfEngineRefused(engine, threadId, recorded.decision, review);
    return outcomeOf(engine, threadId);
  }

  /** A decision the graph refused is set aside, the thread put back at its review, and the refusal thrown. */
  private async throwIfEngineRefused(
    engine: OrchestratorEngine,
    threadId: string,
    decision: DecisionRow,
    answered: PendingReview,
  ): Promise<void> {
    const kept = await engine.store.decisionFor(threadId, decision.interruptId);
    if (kept === undefined || kept.id !== decision.id || kept.refusedAt === null) return;
    const why = (await engine.store.thread(threadId))?.error ?? "the graph refused the decision";
    const refusal = refusalError(engine, threadId, why);
    await engine.store.retryThread(threadId, ORCHESTRATOR);
    await advanceHere(engine, threadId);
    throwIfRefused(threadId, await outcomeOf(engine, threadId), answered);
    throw refusal;
  }

  /** The reviewer decisions made on the thread, oldest first. */
  async history(threadId: string): Promise<DecisionRecord[]> {
    return reviewHistoryOf(threadId, (await this.snapshot(threadId)).values);
  }

  /** The thread's current state values. */
  async getState(threadId: string): Promise<GraphState<G>> {
    return (await this.snapshot(threadId)).values as GraphState<G>;
  }

  /** Closes the store and checkpointer the orchestrator opened itself (given ones stay open). */
  async close(): Promise<void> {
    const pending = this.enginePromise;
    this.enginePromise = undefined;
    await pending?.catch(() => undefined);
    const { store, checkpointer } = this.opened;
    this.opened = {};
    await store?.close();
    await checkpointer?.close();
  }
}
