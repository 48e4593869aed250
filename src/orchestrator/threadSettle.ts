/**
 * How a thread runner (threadRunner.ts) writes where a thread stopped: its review rows for the
 * index, and the settlement, written only while the runner still holds the thread's lock. An
 * interruption (the lock lost with its connection, the database out of reach) is told apart from
 * a failure of the graph: the thread is left for its job to take up again, never failed.
 */
import { isDatabaseUnreachable, storeUnavailable } from "../store/databaseFailures.js";
import type { ReviewStore, ThreadRow, ThreadSettlement } from "../store/types.js";
import type { PendingReview } from "./pendingReview.js";
import type { ProposalRuntime } from "./proposalRuntime.js";

export function pendingRows(thread: ThreadRow, reviews: PendingReview[], pausedAt: string) {
  return reviews.map((review) => ({
    threadId: thread.id,
    interruptId: review.interruptId,
    stage: review.contentId,
    title: `${thread.title}: ${review.title}`,
    overallScore: review.evaluation?.overallScore ?? null,
    passed: review.evaluation?.passed ?? null,
    actions: review.actions,
    createdAt: pausedAt,
    type: review.type,
    verdict: review.evaluation?.verdict ?? null,
  }));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** What every step of a thread runner works with. */
export interface RunnerContext {
  store: ReviewStore;
  runtime: ProposalRuntime;
  /** Aborted when the thread's lock was lost (its connection cut): stop, write nothing more. */
  lost?: AbortSignal;
}

/**
 * Not the graph's failure but the ground under it: the thread's lock lost, or the database out of
 * reach (a restart). The thread is left as it is for a job to take up again, never failed.
 */
export function isInterruption(ctx: RunnerContext, error: unknown): boolean {
  return ctx.lost?.aborted === true || isDatabaseUnreachable(error);
}

/**
 * Settles the thread, unless its lock was lost with its connection (STORE_UNAVAILABLE: nothing is
 * written; another job runs the thread now).
 */
export function settle(ctx: RunnerContext, threadId: string, settlement: ThreadSettlement) {
  if (ctx.lost?.aborted === true) throw storeUnavailable(ctx.lost.reason);
  return ctx.store.settleThread(threadId, settlement);
}
