/**
 * Advances one thread as far as it can go without a reviewer, under the thread's lock (held
 * across processes): runs a new thread to its first review, applies each decision recorded for
 * the interrupt the thread is paused at, runs on a thread a crash stopped between two reviews,
 * and writes where it ended — the pending-review index, the status, the events, and which
 * decisions are applied — in one transaction.
 *
 * Idempotent, so a retried job never applies a decision twice: the checkpoint says what was
 * applied. A decision for an interrupt the thread is no longer paused at was applied (the graph
 * moved past it) and is only marked so; one for the interrupt it is paused at is applied now.
 */
import { Command, type StateSnapshot } from "@langchain/langgraph";
import type { ReviewStore, ThreadRow } from "../store/types.js";
import { type PendingReview, pausedInterrupts, reviewsOf } from "./pendingReview.js";
import type { ProposalRuntime } from "./proposalRuntime.js";

/** What a step came to: `busy` when another job (maybe in another process) holds the thread. */
export type AdvanceOutcome = "busy" | "missing" | "waiting" | "finished" | "failed";

/** Runs of the graph one job makes at most (each runs to a review, the end, or a crash point). */
const MAX_RUNS = 8;

export interface ThreadRunner {
  advance(threadId: string): Promise<AdvanceOutcome>;
}

function pendingRows(thread: ThreadRow, reviews: PendingReview[], pausedAt: string) {
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

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export function createThreadRunner(store: ReviewStore, runtime: ProposalRuntime): ThreadRunner {
  const config = (threadId: string) => ({
    configurable: { thread_id: threadId },
    context: runtime.context,
  });
  const snapshotOf = (threadId: string): Promise<StateSnapshot> =>
    runtime.graph.getState({ configurable: { thread_id: threadId } });

  /** Runs the graph with `input`, recording an event for each node that finished. */
  async function run(threadId: string, input: unknown, stage: string | undefined) {
    await store.setThreadStatus(threadId, "running", null, {
      type: "running",
      ...(stage === undefined ? {} : { stage }),
    });
    const stream = await runtime.graph.stream(input as never, {
      ...config(threadId),
      streamMode: "updates",
    });
    for await (const chunk of stream) {
      const nodes = Object.keys(chunk as Record<string, unknown>).filter(
        (n) => n !== "__interrupt__",
      );
      for (const node of nodes) await store.addEvent(threadId, { type: "stage", message: node });
    }
  }

  /** One look at the checkpoint: what to run next, or where the thread settles. */
  async function step(thread: ThreadRow, applied: string[]): Promise<AdvanceOutcome | "ran"> {
    const threadId = thread.id;
    const tuple = await runtime.saver.getTuple({ configurable: { thread_id: threadId } });
    if (tuple === undefined) {
      await run(threadId, thread.settings.input ?? {}, undefined);
      return "ran";
    }
    const snapshot = await snapshotOf(threadId);
    const reviews = reviewsOf(threadId, snapshot);
    const unapplied = await store.unappliedDecisions(threadId);
    const waitingFor = new Set(reviews.map((r) => r.interruptId));
    for (const d of unapplied) if (!waitingFor.has(d.interruptId)) applied.push(d.id);
    const due = unapplied.find((d) => waitingFor.has(d.interruptId));
    if (due !== undefined) {
      const value = { action: due.action, reviewer: due.reviewer, ...due.payload };
      await run(threadId, new Command({ resume: { [due.interruptId]: value } }), due.stage);
      const after = reviewsOf(threadId, await snapshotOf(threadId));
      if (after.some((r) => r.interruptId === due.interruptId)) {
        applied.push(due.id);
        return settleFailed(threadId, applied, `the graph refused the ${due.action} decision`);
      }
      return "ran";
    }
    const [first] = reviews;
    if (first !== undefined) {
      const pausedAt = snapshot.createdAt ?? new Date().toISOString();
      await store.settleThread(threadId, {
        status: "waiting",
        pending: pendingRows(thread, reviews, pausedAt),
        applied,
        events: [{ type: "review_ready", stage: first.contentId, message: first.title }],
      });
      return "waiting";
    }
    if (snapshot.next.length === 0) {
      await store.settleThread(threadId, {
        status: "finished",
        pending: [],
        applied,
        events: [{ type: "finished" }],
      });
      return "finished";
    }
    const others = pausedInterrupts(snapshot);
    if (others.length > 0) {
      const ids = others.map((i) => i.id).join(", ");
      return settleFailed(threadId, applied, `paused at interrupts that are not reviews (${ids})`);
    }
    // Stopped between two reviews (a process died mid-step): run on from the last checkpoint.
    await run(threadId, null, undefined);
    return "ran";
  }

  async function settleFailed(threadId: string, applied: string[], error: string) {
    await store.settleThread(threadId, {
      status: "failed",
      error,
      pending: [],
      applied,
      events: [{ type: "failed", message: error }],
    });
    return "failed" as const;
  }

  async function advanceLocked(threadId: string): Promise<AdvanceOutcome> {
    const thread = await store.thread(threadId);
    if (thread === undefined) return "missing";
    const applied: string[] = [];
    for (let runs = 0; runs <= MAX_RUNS; runs++) {
      let outcome: AdvanceOutcome | "ran";
      try {
        outcome = await step(thread, applied);
      } catch (error) {
        return settleFailed(threadId, applied, `the graph failed: ${messageOf(error)}`);
      }
      if (outcome !== "ran") return outcome;
    }
    return settleFailed(threadId, applied, `no review or end after ${MAX_RUNS} runs`);
  }

  return {
    async advance(threadId) {
      const lease = await store.tryLockThread(threadId);
      if (lease === undefined) return "busy";
      try {
        return await advanceLocked(threadId);
      } finally {
        await lease.release();
      }
    },
  };
}
