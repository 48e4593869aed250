/**
 * The library ReviewOrchestrator takes the store's thread lock (as the review desk does), so two
 * orchestrators on one SQLite file — each with its own connections, as two processes would have —
 * deciding the same review at once apply it exactly once; and a decision waits while another
 * holder (a desk job, say) has the thread's lock.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { type Checkpointer, createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { openReviewStore } from "../../src/store/index.js";
import type { ReviewStore } from "../../src/store/types.js";
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

describe("ReviewOrchestrator's thread lock across orchestrators on one database", () => {
  it("applies one of two simultaneous decisions on the same review; the other is refused", async () => {
    const a = await orchestratorOnFile();
    const b = await orchestratorOnFile();
    const interruptId = await pausedThread(a.reviews);
    const outcomes = await Promise.allSettled([
      a.reviews.submitDecision("shared", interruptId, { action: "approve", reviewer: "ana" }),
      b.reviews.submitDecision("shared", interruptId, { action: "approve", reviewer: "bo" }),
    ]);
    const applied = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
    expect(applied).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(isEvalgateError(refused[0], "THREAD_NOT_PAUSED")).toBe(true);
    const history = await b.reviews.history("shared");
    expect(history).toHaveLength(1);
    expect(history[0]?.action).toBe("approve");
  });

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
});
