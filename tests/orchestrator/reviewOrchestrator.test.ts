import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Checkpointer, createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { OrchestratorError } from "../../src/orchestrator/errors.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { gate, PROBLEM, PROBLEM_CRITERIA, problemInput, tempDir } from "./helpers.js";

describe("ReviewOrchestrator on a SQLite file", () => {
  let temp: ReturnType<typeof tempDir>;
  let sqlitePath: string;
  const open: Array<{ close(): Promise<void> }> = [];

  beforeEach(() => {
    temp = tempDir();
    sqlitePath = join(temp.dir, "threads", "checkpoints.sqlite");
  });
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
    temp.remove();
  });

  function orchestrator(graph: ReturnType<typeof gate>["graph"]) {
    const o = new ReviewOrchestrator({ graph, checkpointerOptions: { sqlitePath, env: {} } });
    open.push(o);
    return o;
  }

  it("starts a thread, lists its review with the evaluation, and completes it on approve", async () => {
    const { model, graph } = gate();
    const reviews = orchestrator(graph);

    const started = await reviews.start(problemInput, { threadId: "proposal-1" });
    expect(existsSync(sqlitePath)).toBe(true);
    expect(started.threadId).toBe("proposal-1");
    expect(started.state).toBe("paused");
    expect(started.review).toMatchObject({
      threadId: "proposal-1",
      type: "evaluation_review",
      contentType: "problem_statement",
      contentId: "content",
      actions: ["approve", "revise", "edit"],
    });
    expect(started.review?.interruptId).toMatch(/\S/);
    expect(started.values.status).toBe("awaiting_review");
    expect(model.calls).toHaveLength(PROBLEM_CRITERIA);

    const pending = await reviews.pendingReviews();
    expect(pending).toHaveLength(1);
    const [review] = pending;
    expect(review?.interruptId).toBe(started.review?.interruptId);
    expect(review?.evaluation?.passed).toBe(true);
    expect(review?.evaluation?.overallScore).toBeCloseTo(0.85, 5);
    expect(review?.evaluation?.criteria).toHaveLength(PROBLEM_CRITERIA);
    expect(review?.pausedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await reviews.getReview("proposal-1")).toEqual(review);

    const done = await reviews.submitDecision("proposal-1", review?.interruptId ?? "", {
      action: "approve",
      reviewer: "ana",
      comment: "Sourced and specific.",
    });
    expect(done.state).toBe("completed");
    expect(done.review).toBeUndefined();
    expect(done.values.status).toBe("approved");
    expect(model.calls).toHaveLength(PROBLEM_CRITERIA);

    expect(await reviews.pendingReviews()).toEqual([]);
    expect(await reviews.getReview("proposal-1")).toBeUndefined();
    const history = await reviews.history("proposal-1");
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      action: "approve",
      reviewer: "ana",
      comment: "Sourced and specific.",
      contentId: "content",
      contentType: "problem_statement",
      evaluation: { passed: true, verdict: "pass" },
    });
    expect(history[0]?.evaluation?.overallScore).toBeCloseTo(0.85, 5);
    expect(history[0]?.evaluation?.timestamp).toBe(review?.evaluation?.timestamp);
    expect(Date.parse(history[0]?.decidedAt ?? "")).not.toBeNaN();

    const state = await reviews.getState("proposal-1");
    expect(state.content).toBe(PROBLEM);
    expect(state.status).toBe("approved");
    expect(state.isInterrupted).toBe(false);
  });

  it("lets a new orchestrator on the same file find and resume the paused thread without judging again", async () => {
    const first = gate();
    const before = orchestrator(first.graph);
    const started = await before.start(problemInput);
    expect(started.threadId).toMatch(/^[0-9a-f-]{36}$/);
    await before.close();

    const second = gate();
    const after = orchestrator(second.graph);
    const pending = await after.pendingReviews();
    expect(pending.map((r) => [r.threadId, r.interruptId])).toEqual([
      [started.threadId, started.review?.interruptId],
    ]);
    expect(pending[0]?.evaluation?.overallScore).toBeCloseTo(0.85, 5);

    const done = await after.submitDecision(started.threadId, pending[0]?.interruptId ?? "", {
      action: "approve",
      reviewer: "ben",
    });
    expect(done.state).toBe("completed");
    expect(second.model.calls).toHaveLength(0);
    expect(first.model.calls).toHaveLength(PROBLEM_CRITERIA);
    expect((await after.history(started.threadId)).map((r) => r.reviewer)).toEqual(["ben"]);

    // The closed orchestrator opens the file again on use, and sees the thread finished.
    expect(await before.pendingReviews()).toEqual([]);
    expect((await before.getState(started.threadId)).status).toBe("approved");
  });

  it("lists every paused thread, the longest waiting first, and leaves finished ones out", async () => {
    const { graph } = gate();
    const reviews = orchestrator(graph);
    await reviews.start(problemInput, { threadId: "a" });
    const b = await reviews.start(
      { ...problemInput, content: `${PROBLEM} Again.` },
      { threadId: "b" },
    );
    await reviews.start(problemInput, { threadId: "c" });
    await reviews.submitDecision("b", b.review?.interruptId ?? "", { action: "approve" });

    const pending = await reviews.pendingReviews();
    expect(pending.map((r) => r.threadId)).toEqual(["a", "c"]);
  });

  it("refuses to start a thread id that already has state", async () => {
    const { model, graph } = gate();
    const reviews = orchestrator(graph);
    await reviews.start(problemInput, { threadId: "taken" });
    const error = await reviews.start(problemInput, { threadId: "taken" }).catch((e) => e);
    expect(error).toBeInstanceOf(OrchestratorError);
    expect(error.code).toBe("THREAD_EXISTS");
    expect(error.message).toContain('"taken"');
    expect(model.calls).toHaveLength(PROBLEM_CRITERIA);
  });

  it("works on a Checkpointer the caller opened and leaves it open", async () => {
    const checkpointer: Checkpointer = await createCheckpointer({ sqlitePath, env: {} });
    try {
      const { graph } = gate();
      const reviews = new ReviewOrchestrator({ graph, checkpointer });
      const started = await reviews.start(problemInput, { threadId: "shared" });
      await reviews.close();
      const tuple = await checkpointer.saver.getTuple({ configurable: { thread_id: "shared" } });
      expect(tuple).toBeDefined();
      expect(started.state).toBe("paused");
    } finally {
      await checkpointer.close();
    }
  });
});
