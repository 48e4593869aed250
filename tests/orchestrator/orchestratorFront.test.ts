/**
 * ReviewOrchestrator is a front on the thread engine (threadRunner.ts, whose exactly-once tests
 * — races, kills, replicas — are the desk's): these check only the front's mapping. A decision
 * waits while another holder (a desk job, say) has the thread's lock; the same decision given
 * again after a process died with it recorded is applied once, another one finds the review
 * taken; a start that stopped before its first checkpoint is started again with its input.
 */
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { type Checkpointer, createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { graphKeyOf } from "../../src/orchestrator/threadIndex.js";
import { openReviewStore } from "../../src/store/index.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import { researchGraph, tempDir } from "./helpers.js";

let temp: ReturnType<typeof tempDir>;
let sqlitePath: string;
const opened: Array<{ close(): Promise<void> }> = [];

beforeEach(() => {
  temp = tempDir();
  sqlitePath = join(temp.dir, "checkpoints.sqlite");
});
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
  temp.remove();
});

async function orchestratorOnFile() {
  const checkpointer: Checkpointer = await createCheckpointer({ sqlitePath, env: {} });
  const { graph, model } = researchGraph();
  const reviews = new ReviewOrchestrator({ graph, checkpointer });
  opened.push(checkpointer, reviews);
  return { reviews, model };
}

async function pausedThread(reviews: Awaited<ReturnType<typeof orchestratorOnFile>>["reviews"]) {
  const started = await reviews.start({}, { threadId: "shared" });
  if (started.state !== "paused" || started.review === undefined) throw new Error("not paused");
  return started.review.interruptId;
}

describe("ReviewOrchestrator on the thread engine", () => {
  it("waits while another holder has the thread's lock, then decides", async () => {
    const a = await orchestratorOnFile();
    const interruptId = await pausedThread(a.reviews);
    const store: ReviewStore = await openReviewStore({ sqlitePath, env: {} });
    opened.push(store);
    const lease = await store.tryLockThread("shared");
    expect(lease).toBeDefined();
    let settled = false;
    const deciding = a.reviews
      .submitDecision("shared", interruptId, { action: "approve", reviewer: "ana" })
      .finally(() => {
        settled = true;
      });
    // Several rounds of the orchestrator's polling pass while the lock is held elsewhere.
    for (let round = 0; round < 5; round += 1) await new Promise((r) => setTimeout(r, 40));
    expect(settled).toBe(false);
    expect((await a.reviews.getReview("shared"))?.interruptId).toBe(interruptId);
    await lease?.release();
    const done = await deciding;
    expect(done.state).toBe("completed");
    expect(await a.reviews.history("shared")).toHaveLength(1);
  });

  it("applies a decision recorded before a process died once, when it is given again", async () => {
    const a = await orchestratorOnFile();
    const interruptId = await pausedThread(a.reviews);
    // What a process that died right after recording the decision leaves behind.
    const store: ReviewStore = await openReviewStore({ sqlitePath, env: {} });
    opened.push(store);
    const [pending] = await store.pendingOf("shared");
    const recorded = await store.recordDecision({
      id: "d-1",
      threadId: "shared",
      interruptId,
      stage: pending?.stage ?? "",
      reviewer: "ana",
      action: "approve",
      payload: {},
      decidedAt: new Date().toISOString(),
    });
    expect(recorded.kind).toBe("recorded");

    const other = await a.reviews
      .submitDecision("shared", interruptId, { action: "approve", reviewer: "bo" })
      .catch((e: unknown) => e);
    expect(isEvalgateError(other, "THREAD_NOT_PAUSED")).toBe(true);
    const history = await a.reviews.history("shared");
    expect(history.map((d) => [d.reviewer, d.action])).toEqual([["ana", "approve"]]);
  });

  it("gives the same decision, given again, the thread's outcome, applied once", async () => {
    const a = await orchestratorOnFile();
    const interruptId = await pausedThread(a.reviews);
    const store: ReviewStore = await openReviewStore({ sqlitePath, env: {} });
    opened.push(store);
    const [pending] = await store.pendingOf("shared");
    await store.recordDecision({
      ...{ id: "d-2", threadId: "shared", interruptId, stage: pending?.stage ?? "" },
      ...{ reviewer: "ana", action: "approve", payload: {}, decidedAt: new Date().toISOString() },
    });
    const done = await a.reviews.submitDecision("shared", interruptId, {
      action: "approve",
      reviewer: "ana",
    });
    expect(done.state).toBe("completed");
    expect((await a.reviews.history("shared")).map((d) => d.reviewer)).toEqual(["ana"]);
    expect((await store.decisionsOf("shared")).map((d) => d.id)).toEqual(["d-2"]);
  });

  it("starts again a thread whose start stopped before its first checkpoint", async () => {
    const a = await orchestratorOnFile();
    const store: ReviewStore = await openReviewStore({ sqlitePath, env: {} });
    opened.push(store);
    const graph = researchGraph().graph.compile({ checkpointer: new MemorySaver() });
    // A start that registered the thread and died before the graph saved anything.
    await store.createThread(
      {
        ...{ id: "early", graph: graphKeyOf(graph.channels), title: "early" },
        ...{ creator: "review-orchestrator", status: "queued" as const, settings: { input: {} } },
      },
      { type: "queued" },
    );
    const other = await a.reviews
      .start({ rfpDocument: "Another RFP" }, { threadId: "early" })
      .catch((e: unknown) => e);
    expect(isEvalgateError(other, "THREAD_EXISTS")).toBe(true);
    const started = await a.reviews.start({}, { threadId: "early" });
    expect(started.state).toBe("paused");
    expect((await a.reviews.pendingReviews()).map((r) => r.threadId)).toEqual(["early"]);
  });
});
