import { MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import type { DecisionRecord } from "../../src/graph/model.js";
import { OverallProposalState } from "../../src/graph/state.js";
import {
  InterruptMismatchError,
  InvalidDecisionError,
  OrchestratorError,
  ThreadNotPausedError,
} from "../../src/orchestrator/errors.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { gate, PROBLEM_CRITERIA, problemInput, tempDir } from "./helpers.js";

describe("ReviewOrchestrator errors", () => {
  let temp: ReturnType<typeof tempDir>;
  let judge: ReturnType<typeof gate>;
  let reviews: ReviewOrchestrator<ReturnType<typeof gate>["graph"]>;

  beforeEach(() => {
    temp = tempDir();
    judge = gate();
    reviews = new ReviewOrchestrator({
      graph: judge.graph,
      checkpointerOptions: { sqlitePath: `${temp.dir}/checkpoints.sqlite`, env: {} },
    });
  });
  afterEach(async () => {
    await reviews.close();
    temp.remove();
  });

  it("an unknown thread is a CHECKPOINT_NOT_FOUND error naming it, for every lookup", async () => {
    const lookups = [
      reviews.getReview("ghost"),
      reviews.history("ghost"),
      reviews.getState("ghost"),
      reviews.submitDecision("ghost", "any-interrupt", { action: "approve" }),
    ];
    for (const lookup of lookups) {
      const error = await lookup.catch((e) => e);
      expect(error).toBeInstanceOf(OrchestratorError);
      expect(isEvalgateError(error, "CHECKPOINT_NOT_FOUND")).toBe(true);
      expect(error.threadId).toBe("ghost");
      expect(error.message).toContain('"ghost"');
    }
  });

  it("a completed thread is a ThreadNotPausedError", async () => {
    const started = await reviews.start(problemInput, { threadId: "done" });
    const interruptId = started.review?.interruptId ?? "";
    await reviews.submitDecision("done", interruptId, { action: "approve" });

    const error = await reviews
      .submitDecision("done", interruptId, { action: "approve" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ThreadNotPausedError);
    expect(error.reason).toEqual({ kind: "completed" });
    expect(error.message).toContain('"done"');
    expect(error.message).toContain("completed");
    expect(await reviews.history("done")).toHaveLength(1);
  });

  it("a decision for another interrupt is an InterruptMismatchError naming the current one", async () => {
    const started = await reviews.start(problemInput, { threadId: "t" });
    const current = started.review?.interruptId ?? "";

    const error = await reviews
      .submitDecision("t", "stale-interrupt", { action: "approve" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InterruptMismatchError);
    expect(error.currentInterruptIds).toEqual([current]);
    expect(error.message).toContain(current);
    expect(error.message).toContain('"t"');
    expect((await reviews.getReview("t"))?.interruptId).toBe(current);
    expect(await reviews.history("t")).toEqual([]);
  });

  it("an invalid decision is an InvalidDecisionError naming the field, and the thread stays paused", async () => {
    const started = await reviews.start(problemInput, { threadId: "t" });
    const interruptId = started.review?.interruptId ?? "";

    const noFeedback = await reviews
      .submitDecision("t", interruptId, { action: "revise" })
      .catch((e) => e);
    expect(noFeedback).toBeInstanceOf(InvalidDecisionError);
    expect(noFeedback.issues.map((i: { field: string }) => i.field)).toEqual(["feedback"]);
    expect(noFeedback.message).toContain("feedback");
    expect(noFeedback.message).toContain('"t"');

    const blankEdit = await reviews
      .submitDecision("t", interruptId, { action: "edit", content: "   " })
      .catch((e) => e);
    expect(blankEdit.issues.map((i: { field: string }) => i.field)).toEqual(["content"]);

    const unknownAction = await reviews
      .submitDecision("t", interruptId, { action: "reject" })
      .catch((e) => e);
    expect(unknownAction).toBeInstanceOf(InvalidDecisionError);
    expect(unknownAction.issues.map((i: { field: string }) => i.field)).toEqual(["action"]);

    const pending = await reviews.pendingReviews();
    expect(pending.map((r) => [r.threadId, r.interruptId])).toEqual([["t", interruptId]]);
    expect(await reviews.history("t")).toEqual([]);
    expect(judge.model.calls).toHaveLength(PROBLEM_CRITERIA);

    const done = await reviews.submitDecision("t", interruptId, {
      action: "revise",
      feedback: "Add the 2025 figures.",
    });
    expect(done.state).toBe("completed");
    expect(done.values.revisionFeedback).toEqual({ content: "Add the 2025 figures." });
  });

  it("checks the decision before the thread: an invalid decision for an unknown thread", async () => {
    const error = await reviews
      .submitDecision("ghost", "x", { action: "approve", extra: true })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidDecisionError);
    expect(error.message).toContain('"ghost"');
  });

  it("two decisions racing for one interrupt: one resumes, the other finds the thread finished", async () => {
    const started = await reviews.start(problemInput, { threadId: "race" });
    const interruptId = started.review?.interruptId ?? "";
    const results = await Promise.allSettled([
      reviews.submitDecision("race", interruptId, { action: "approve", reviewer: "ana" }),
      reviews.submitDecision("race", interruptId, { action: "edit", content: "Other text." }),
    ]);
    expect(results[0]).toMatchObject({ status: "fulfilled", value: { state: "completed" } });
    expect(results[1]?.status).toBe("rejected");
    expect(results[1]?.status === "rejected" && results[1].reason).toBeInstanceOf(
      ThreadNotPausedError,
    );
    expect((await reviews.history("race")).map((r) => r.reviewer)).toEqual(["ana"]);
  });

  it("refuses a blank thread id", async () => {
    const error = await reviews.start(problemInput, { threadId: " " }).catch((e) => e);
    expect(error).toBeInstanceOf(OrchestratorError);
    expect(error.code).toBe("THREAD_ID_INVALID");
  });
});

describe("ReviewOrchestrator on a graph that fails", () => {
  it("reports the failure as GRAPH_RUN_FAILED, and a decision as ThreadNotPausedError (stopped)", async () => {
    const graph = new StateGraph(OverallProposalState)
      .addNode("writeResearch", () => {
        throw new TypeError("the research writer crashed");
      })
      .addEdge(START, "writeResearch");
    const reviews = new ReviewOrchestrator({ graph, checkpointer: new MemorySaver() });

    const error = await reviews.start({ rfpDocument: "RFP" }, { threadId: "w" }).catch((e) => e);
    expect(error).toBeInstanceOf(OrchestratorError);
    expect(error.code).toBe("GRAPH_RUN_FAILED");
    // The error's own words, never its JS class name ("TypeError: …").
    expect(error.message).toBe('thread "w": the graph failed: the research writer crashed');

    const decision = await reviews.submitDecision("w", "x", { action: "approve" }).catch((e) => e);
    expect(decision).toBeInstanceOf(ThreadNotPausedError);
    expect(decision.reason).toMatchObject({ kind: "stopped", next: ["writeResearch"] });
    expect(decision.message).toContain("the research writer crashed");
    expect(await reviews.getReview("w")).toBeUndefined();
  });
});

describe("ReviewOrchestrator on a thread whose review history is malformed", () => {
  it("reports it as THREAD_STATE_INVALID naming the thread and the place", async () => {
    const graph = new StateGraph(OverallProposalState)
      .addNode("importLegacy", () => ({
        reviewHistory: [{ action: "approved-by-email" }] as unknown as DecisionRecord[],
      }))
      .addEdge(START, "importLegacy");
    const reviews = new ReviewOrchestrator({ graph, checkpointer: new MemorySaver() });
    const done = await reviews.start({}, { threadId: "legacy" });
    expect(done.state).toBe("completed");
    const error = await reviews.history("legacy").catch((e) => e);
    expect(error).toBeInstanceOf(OrchestratorError);
    expect(error.code).toBe("THREAD_STATE_INVALID");
    expect(error.message).toContain('"legacy"');
    expect(error.message).toMatch(/reviewHistory is not a list of decision records at 0\./);
  });
});
