/**
 * Advances one thread as far as it goes without a reviewer, under its cross-process lock, and
 * writes where it ended in one transaction. Idempotent, so a retried job never applies a decision
 * twice: the checkpoint says what was applied; a decision for an interrupt the graph moved past is
 * only marked applied.
 */
import { Command, type StateSnapshot } from "@langchain/langgraph";
import { userMessage } from "../errors.js";
import { describeProgress, threadProgress } from "../graph/threadProgress.js";
import { isDatabaseUnreachable } from "../store/databaseFailures.js";
import type { ReviewStore } from "../store/reviewStore.js";
import type { DecisionRow, ThreadRow } from "../store/types.js";
import { pruneFinishedThread, pruneSupersededWrites } from "./checkpointRetention.js";
import { pausedInterruptIds, refusedDecision, reviewsOf } from "./pendingReview.js";
import {
  isInterruption,
  pendingRows,
  type RunnerContext,
  run,
  settle,
  snapshotOf,
  type ThreadRuntime,
} from "./threadRun.js";

/** `busy`: another job holds the thread, or the database is out of reach (the job is tried again). */
export type AdvanceOutcome = "busy" | "missing" | "waiting" | "finished" | "failed";

/** Runs of the graph one job makes at most (each runs to a review, the end, or a crash point). */
const MAX_RUNS = 8;

export interface ThreadRunner {
  advance(threadId: string): Promise<AdvanceOutcome>;
}

interface Ran {
  ran: boolean;
  snapshot?: StateSnapshot;
}

/** One look at the checkpoint (or the snapshot the last step read): what to run, or where it settles. */
async function step(
  ctx: RunnerContext,
  thread: ThreadRow,
  applied: string[],
  known: StateSnapshot | undefined,
): Promise<AdvanceOutcome | Ran> {
  const threadId = thread.id;
  if (known === undefined) {
    // A decision due is applied on the checkpoint's own word that its interrupt is waited on.
    const waiting = await pausedInterruptIds(ctx.runtime.saver, threadId);
    if (waiting === undefined) {
      // No checkpoint yet: a new thread, run from its input.
      await run(ctx, threadId, thread.settings.input ?? {}, undefined);
      return { ran: true };
    }
    const unapplied = await ctx.store.unappliedDecisions(threadId);
    const due = unapplied.find((d) => waiting.includes(d.interruptId));
    if (due !== undefined) return applyDue(ctx, threadId, applied, { unapplied, waiting, due });
  }
  const snapshot = known ?? (await snapshotOf(ctx, threadId));
  if (snapshot.createdAt === undefined) {
    await run(ctx, threadId, thread.settings.input ?? {}, undefined);
    return { ran: true };
  }
  const reviews = reviewsOf(threadId, snapshot);
  const unapplied = await ctx.store.unappliedDecisions(threadId);
  const waiting = reviews.map((r) => r.interruptId);
  const due = unapplied.find((d) => waiting.includes(d.interruptId));
  if (due !== undefined) return applyDue(ctx, threadId, applied, { unapplied, waiting, due });
  for (const d of unapplied) applied.push(d.id);
  const [first] = reviews;
  if (first !== undefined) {
    const settled = await settle(ctx, threadId, {
      status: "waiting",
      pending: pendingRows(thread, snapshot, reviews),
      applied,
      events: [{ type: "review_ready", stage: first.contentId, message: first.title }],
    });
    // A decision arrived on the review meanwhile: apply it now (a fresh look at the checkpoint).
    if (settled === "decided") return { ran: false };
    if (settled === "settled") await pruneSupersededWrites(ctx.runtime.saver, threadId);
    return "waiting";
  }
  const progress = threadProgress(snapshot);
  if (progress.kind === "finished") {
    await settle(ctx, threadId, {
      status: "finished",
      pending: [],
      applied,
      events: [{ type: "finished" }],
    });
    if (ctx.runtime.retention === "latest") await pruneFinishedThread(ctx.runtime.saver, threadId);
    else await pruneSupersededWrites(ctx.runtime.saver, threadId);
    return "finished";
  }
  if (progress.kind === "paused") {
    return settleFailed(ctx, threadId, applied, `${describeProgress(progress)}, not at a review`);
  }
  // Work left: a process died mid-step (a node to run, or a node's writes not yet applied to a
  // checkpoint), or a node failed. Run on from the last checkpoint; nothing finished runs again.
  await run(ctx, threadId, null, undefined);
  return { ran: true };
}
/** Applies `due`; the other recorded decisions are for interrupts the graph moved past: marked applied. */
async function applyDue(
  ctx: RunnerContext,
  threadId: string,
  applied: string[],
  decisions: { unapplied: readonly DecisionRow[]; waiting: readonly string[]; due: DecisionRow },
): Promise<AdvanceOutcome | Ran> {
  const { unapplied, waiting, due } = decisions;
  for (const d of unapplied) if (!waiting.includes(d.interruptId)) applied.push(d.id);
  const { refusal, after } = await applyDecision(ctx, threadId, due);
  if (refusal === undefined) return { ran: true, snapshot: after };
  // Kept aside, not applied: a retry of the thread lets the review be decided anew.
  return settleFailed(ctx, threadId, applied, refusal, [{ id: due.id, reason: refusal }]);
}

/** Resumes the thread with the decision; says why when the graph refused it. */
async function applyDecision(
  ctx: RunnerContext,
  threadId: string,
  due: DecisionRow,
): Promise<{ refusal?: string; after: StateSnapshot }> {
  // A decision recorded without a name (the library's, where the reviewer is optional) has none.
  const who = due.reviewer === "" ? {} : { reviewer: due.reviewer };
  const value = { action: due.action, ...who, ...due.payload };
  const refused = (after: StateSnapshot, detail = "") => {
    const found = refusedDecision(threadId, after, due);
    if (found === undefined) return undefined;
    const why = detail !== "" ? detail : found.reason;
    return `the graph refused the ${due.action} decision${why === undefined ? "" : `: ${why}`}`;
  };
  try {
    await run(ctx, threadId, new Command({ resume: { [due.interruptId]: value } }), due.stage);
  } catch (error) {
    if (isInterruption(ctx, error)) throw error;
    const after = await snapshotOf(ctx, threadId);
    ctx.runtime.onGraphError?.(threadId, error);
    const refusal = refused(after, userMessage(error));
    if (refusal !== undefined) return { refusal, after };
    throw error;
  }
  const after = await snapshotOf(ctx, threadId);
  const refusal = refused(after);
  return refusal === undefined ? { after } : { refusal, after };
}

async function settleFailed(
  ctx: RunnerContext,
  threadId: string,
  applied: string[],
  error: string,
  refused: Array<{ id: string; reason: string }> = [],
) {
  await settle(ctx, threadId, {
    status: "failed",
    error,
    pending: [],
    applied,
    refused,
    events: [{ type: "failed", message: error }],
  });
  return "failed" as const;
}
/** Steps the thread until it settles: a graph failure fails it, an interruption leaves it `busy`. */
async function advanceLocked(ctx: RunnerContext, threadId: string): Promise<AdvanceOutcome> {
  try {
    const thread = await ctx.store.thread(threadId);
    if (thread === undefined) return "missing";
    const applied: string[] = [];
    let known: StateSnapshot | undefined;
    for (let runs = 0; runs <= MAX_RUNS; ) {
      let outcome: AdvanceOutcome | Ran;
      try {
        outcome = await step(ctx, thread, applied, known);
      } catch (error) {
        if (isInterruption(ctx, error)) throw error;
        ctx.runtime.onGraphError?.(threadId, error);
        return await settleFailed(
          ctx,
          threadId,
          applied,
          `the graph failed: ${userMessage(error)}`,
        );
      }
      if (typeof outcome === "string") return outcome;
      known = outcome.snapshot;
      runs++;
    }
    return await settleFailed(ctx, threadId, applied, `no review or end after ${MAX_RUNS} runs`);
  } catch (error) {
    if (isInterruption(ctx, error)) return settleStopped(ctx, threadId);
    throw error;
  }
}

/**
 * A run cut short because this process is stopping (not a lost lock: then another job holds the
 * thread, and nothing is written) leaves the thread where it stands, and the index says so and what
 * comes next. Only a run that began (`running`) and did not settle is rewritten: a thread settled
 * at a review or its end keeps what it settled. `busy`: its job, if it has one, is tried again.
 */
async function settleStopped(ctx: RunnerContext, threadId: string): Promise<"busy"> {
  const { afterStop, stopping } = ctx.runtime;
  if (afterStop === undefined || stopping?.aborted !== true || ctx.lost?.aborted === true) {
    return "busy";
  }
  const event = { type: afterStop.status, message: afterStop.message(threadId) };
  try {
    if ((await ctx.store.thread(threadId))?.status !== "running") return "busy";
    await ctx.store.setThreadStatus(threadId, afterStop.status, null, event);
  } catch (error) {
    // The database out of reach: the thread is shown one step behind, as any lost status is.
    if (!isDatabaseUnreachable(error)) throw error;
  }
  return "busy";
}
export function createThreadRunner(store: ReviewStore, runtime: ThreadRuntime): ThreadRunner {
  const ctx: RunnerContext = { store, runtime };
  return {
    async advance(threadId) {
      // The database out of reach: the thread waits for its job's next try.
      const lease = await store.tryLockThread(threadId).catch((error: unknown) => {
        if (isInterruption(ctx, error)) return undefined;
        throw error;
      });
      if (lease === undefined) return "busy";
      try {
        return await advanceLocked({ ...ctx, lost: lease.lost }, threadId);
      } finally {
        await lease.release();
      }
    },
  };
}
