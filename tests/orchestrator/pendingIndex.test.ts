/**
 * ReviewOrchestrator.pendingReviews() reads the pending-review index, not the checkpoints: with
 * many threads in the database, a page of five costs five checkpoint reads and no scan of the
 * saver; the pages, walked with `after`, give every paused thread once, the longest waiting first.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Checkpointer, createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { openReviewStore } from "../../src/store/index.js";
import { gate, PROBLEM, problemInput, tempDir } from "./helpers.js";

const THREADS = 24;
const threadName = (i: number) => `t-${String(i).padStart(2, "0")}`;

describe("pendingReviews on the pending-review index", () => {
  let temp: ReturnType<typeof tempDir>;
  let sqlitePath: string;
  let checkpointer: Checkpointer;
  const open: Array<{ close(): Promise<void> }> = [];

  beforeEach(async () => {
    temp = tempDir();
    sqlitePath = join(temp.dir, "checkpoints.sqlite");
    checkpointer = await createCheckpointer({ sqlitePath, env: {} });
  });
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
    await checkpointer.close();
    temp.remove();
  });

  it("lists a page with one checkpoint read per listed thread and never scans the saver", async () => {
    const reviews = new ReviewOrchestrator({ graph: gate().graph, checkpointer });
    open.push(reviews);
    for (let i = 0; i < THREADS; i++) {
      await reviews.start(
        { ...problemInput, content: `${PROBLEM} (${i})` },
        { threadId: threadName(i) },
      );
    }
    // Two of them decided: they leave the index.
    for (const threadId of [threadName(3), threadName(10)]) {
      const review = await reviews.getReview(threadId);
      await reviews.submitDecision(threadId, review?.interruptId ?? "", { action: "approve" });
    }

    const list = vi.spyOn(checkpointer.saver, "list");
    const getTuple = vi.spyOn(checkpointer.saver, "getTuple");
    const page = await reviews.pendingReviews({ limit: 5 });
    expect(page.map((r) => r.threadId)).toEqual(["t-00", "t-01", "t-02", "t-04", "t-05"]);
    expect(page[0]?.evaluation?.overallScore).toBeCloseTo(0.85, 5);
    expect(list).not.toHaveBeenCalled();
    expect(getTuple).toHaveBeenCalledTimes(5);

    // Every page after the last review of the one before: each waiting thread once, in order.
    const walked: string[] = [];
    let after = undefined as (typeof page)[number] | undefined;
    for (;;) {
      const next = await reviews.pendingReviews({ limit: 7, ...(after ? { after } : {}) });
      walked.push(...next.map((r) => r.threadId));
      after = next.at(-1);
      if (next.length < 7) break;
    }
    const waiting = Array.from({ length: THREADS }, (_, i) => i)
      .filter((i) => i !== 3 && i !== 10)
      .map(threadName);
    expect(walked).toEqual(waiting);
    expect((await reviews.pendingReviews()).map((r) => r.threadId)).toEqual(waiting);
    expect(list).not.toHaveBeenCalled();

    // The review desk reading the same store does not list the orchestrator's threads.
    const store = await openReviewStore({ sqlitePath });
    open.push(store);
    expect(await store.listPending({ limit: 100 })).toEqual([]);
  });

  it("reindex() finds threads paused before the index knew them", async () => {
    // An orchestrator whose index lives elsewhere (in memory) leaves the file's index empty.
    const elsewhere = await openReviewStore({ sqlitePath: ":memory:" });
    open.push(elsewhere);
    const earlier = new ReviewOrchestrator({ graph: gate().graph, checkpointer, store: elsewhere });
    const started = await earlier.start(problemInput, { threadId: "legacy" });

    const reviews = new ReviewOrchestrator({ graph: gate().graph, checkpointer });
    open.push(reviews);
    expect(await reviews.pendingReviews()).toEqual([]);
    expect(await reviews.reindex()).toBe(1);
    const pending = await reviews.pendingReviews();
    expect(pending.map((r) => [r.threadId, r.interruptId])).toEqual([
      ["legacy", started.review?.interruptId],
    ]);
  });
});
