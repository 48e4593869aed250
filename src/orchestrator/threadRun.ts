/**
 * One run of the graph on a thread, streamed step by step, each finished node and each stage's
 * progress recorded as the thread's events; and how the runner writes where a thread stopped, only
 * while it still holds the lock. An interruption (lock lost, database out of reach) leaves the
 * thread for its job, never failed.
 */

import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, StateSnapshot } from "@langchain/langgraph";
import { PROPOSAL_RECURSION_LIMIT } from "../graph/proposalGraph.js";
import { RUN_SINKS_KEY, sinksOfSaver } from "../graph/runSinks.js";
import type { StageDefinition } from "../graph/stages.js";
import { describeProgress, threadProgress } from "../graph/threadProgress.js";
import { proposalTitle, type TitleSource } from "../proposal/title.js";
import { isDatabaseUnreachable, storeUnavailable } from "../store/databaseFailures.js";
import type { ReviewStore } from "../store/reviewStore.js";
import type { ThreadRow, ThreadSettlement } from "../store/types.js";
import type { CheckpointRetention } from "./checkpointRetention.js";
import { type PendingReview, reviewsOf } from "./pendingReview.js";
import {
  createStageProgressTracker,
  describeStageProgress,
  type StageProgress,
  type StageProgressListener,
} from "./stageProgress.js";

function configOf(ctx: RunnerContext, threadId: string) {
  const override = ctx.runtime.overrideSettings ? { overrideSettings: true } : {};
  return {
    // The graph may be the caller's own: its evaluation nodes find the trace store and the judge
    // cache beside the checkpoints through the run's config.
    configurable: {
      thread_id: threadId,
      ...override,
      [RUN_SINKS_KEY]: sinksOfSaver(ctx.runtime.saver),
    },
    ...(ctx.runtime.context === undefined ? {} : { context: ctx.runtime.context }),
    recursionLimit: PROPOSAL_RECURSION_LIMIT,
    // Each step's checkpoint is written before the next step starts: a decision is applied and
    // durable before the next stage's work begins, not written somewhere during it.
    durability: "sync" as const,
  };
}

export function snapshotOf(ctx: RunnerContext, threadId: string): Promise<StateSnapshot> {
  return ctx.runtime.graph.getState({ configurable: { thread_id: threadId } });
}

/** A run ends when its lock is lost or the process stops: the thread stays where it stands. */
function runSignal(ctx: RunnerContext): { signal?: AbortSignal } {
  const signals = [ctx.lost, ctx.runtime.stopping].filter((s) => s !== undefined);
  if (signals.length === 0) return {};
  return { signal: signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals) };
}

export async function run(
  ctx: RunnerContext,
  threadId: string,
  input: unknown,
  stage: string | undefined,
) {
  await ctx.store.setThreadStatus(threadId, "running", null, {
    type: "running",
    ...(stage === undefined ? {} : { stage }),
  });
  const stream = await ctx.runtime.graph.stream(input, {
    ...configOf(ctx, threadId),
    streamMode: ["updates", "custom"],
    ...runSignal(ctx),
  });
  const tracker = createStageProgressTracker(ctx.runtime.stages);
  for await (const [mode, chunk] of stream as AsyncIterable<[string, unknown]>) {
    if (mode === "custom") {
      await reportProgress(ctx, threadId, tracker(chunk));
      continue;
    }
    const nodes = Object.keys(chunk as Record<string, unknown>).filter(
      (n) => n !== "__interrupt__",
    );
    for (const node of nodes) await ctx.store.addEvent(threadId, { type: "stage", message: node });
  }
}

/** A stage being written or judged: a `progress` event, and the desk's listener told. */
async function reportProgress(
  ctx: RunnerContext,
  threadId: string,
  progress: StageProgress | undefined,
): Promise<void> {
  if (progress === undefined) return;
  await ctx.store.addEvent(threadId, {
    type: "progress",
    stage: progress.stage,
    message: describeStageProgress(progress),
  });
  try {
    ctx.runtime.onProgress?.(threadId, progress);
  } catch {
    // A listener that fails (a closed terminal) does not stop the run.
  }
}

interface ThreadGraph {
  stream(input: unknown, options: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: RunnableConfig): Promise<StateSnapshot>;
}

/** A compiled graph on its checkpoint saver, as the thread engine runs it. */
export interface ThreadRuntime {
  graph: ThreadGraph;
  saver: BaseCheckpointSaver;
  context?: unknown;
  overrideSettings: boolean;
  retention: CheckpointRetention;
  /** The stages progress is reported for (none: no progress events). */
  stages: readonly StageDefinition[];
  onProgress?: StageProgressListener | undefined;
  /** Told of the graph's error that failed the thread or refused a decision (its message is kept). */
  onGraphError?: ((threadId: string, error: unknown) => void) | undefined;
  /** The process is stopping (Ctrl-C, SIGTERM): a run it cuts short stays at its last step. */
  stopping?: AbortSignal | undefined;
  /** What a run cut short by `stopping` records (default: its status is left as it was). */
  afterStop?: AfterStop | undefined;
}

/**
 * Where a run cut short by stopping leaves its thread in the index, and what comes next: `queued`
 * (its job goes back to the queue) or `stopped` (a command goes on with it). The event of the same
 * type carries `message(threadId)`.
 */
export interface AfterStop {
  status: "queued" | "stopped";
  message: (threadId: string) => string;
}

/** The index rows of the reviews a thread waits for, named by its proposal (proposal/title.ts). */
export function pendingRows(thread: ThreadRow, snapshot: StateSnapshot, reviews: PendingReview[]) {
  const title = proposalTitle(snapshot.values as TitleSource, thread.title);
  const pausedAt = snapshot.createdAt ?? new Date().toISOString();
  return reviews.map((review) => ({
    threadId: thread.id,
    interruptId: review.interruptId,
    stage: review.contentId,
    title: `${title}: ${review.title}`,
    overallScore: review.evaluation?.overallScore ?? null,
    passed: review.evaluation?.passed ?? null,
    actions: review.actions,
    createdAt: pausedAt,
    type: review.type,
    verdict: review.evaluation?.verdict ?? null,
  }));
}

export interface RunnerContext {
  store: ReviewStore;
  runtime: ThreadRuntime;
  /** Aborted when the thread's lock was lost (its connection cut): stop, write nothing more. */
  lost?: AbortSignal;
}

/**
 * Not the graph's failure but the ground under it: the lock lost, the process stopping, or the
 * database out of reach. The thread is left as it stands, with its work left, to go on later.
 */
export function isInterruption(ctx: RunnerContext, error: unknown): boolean {
  const stopped = ctx.lost?.aborted === true || ctx.runtime.stopping?.aborted === true;
  return stopped || isDatabaseUnreachable(error);
}

/** Settles the thread, unless its lock was lost (STORE_UNAVAILABLE: another job runs it now). */
export function settle(ctx: RunnerContext, threadId: string, settlement: ThreadSettlement) {
  if (ctx.lost?.aborted === true) throw storeUnavailable(ctx.lost.reason);
  return ctx.store.settleThread(threadId, settlement);
}

/**
 * Writes where the thread stands from its checkpoint without running it (an index rebuild), under its
 * lock; false when another job holds it or the store has no row.
 */
export async function indexThread(
  store: ReviewStore,
  runtime: ThreadRuntime,
  threadId: string,
): Promise<boolean> {
  const lease = await store.tryLockThread(threadId);
  if (lease === undefined) return false;
  try {
    const thread = await store.thread(threadId);
    if (thread === undefined) return false;
    const snapshot = await runtime.graph.getState({ configurable: { thread_id: threadId } });
    const reviews = reviewsOf(threadId, snapshot);
    const progress = threadProgress(snapshot);
    const none = { applied: [], events: [] };
    const settlement: ThreadSettlement =
      reviews.length > 0
        ? {
            status: "waiting",
            pending: pendingRows(thread, snapshot, reviews),
            ...none,
          }
        : progress.kind === "finished"
          ? { status: "finished", pending: [], ...none }
          : { status: "failed", error: describeProgress(progress), pending: [], ...none };
    await settle({ store, runtime, lost: lease.lost }, threadId, settlement);
    return true;
  } finally {
    await lease.release();
  }
}
