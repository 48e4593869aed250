import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { InvalidDecisionError } from "../../src/orchestrator/errors.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { askedAgain } from "../graph/helpers.js";
import { gate, PROBLEM_CRITERIA, problemInput, researchGraph, switchableJudge } from "./helpers.js";

function orchestrator() {
  const judge = gate();
  return {
    ...judge,
    reviews: new ReviewOrchestrator({ graph: judge.graph, checkpointer: new MemorySaver() }),
  };
}

describe("decisions through the orchestrator", () => {
  it("revise ends the gate with the feedback recorded", async () => {
    const { reviews } = orchestrator();
    const started = await reviews.start(problemInput, { threadId: "r" });
    const done = await reviews.submitDecision("r", started.review?.interruptId ?? "", {
      action: "revise",
      feedback: "Cite the 2025 county figures.",
      reviewer: "ana",
    });
    expect(done.state).toBe("completed");
    expect(done.values.status).toBe("revision_requested");
    expect(done.values.revisionFeedback).toEqual({ content: "Cite the 2025 county figures." });
    expect(await reviews.history("r")).toMatchObject([
      { action: "revise", reviewer: "ana", feedback: "Cite the 2025 county figures." },
    ]);
  });

  it("edit replaces the content", async () => {
    const { reviews, model } = orchestrator();
    const started = await reviews.start(problemInput, { threadId: "e" });
    const done = await reviews.submitDecision("e", started.review?.interruptId ?? "", {
      action: "edit",
      content: "Flooding displaced 1,240 households; 300 are still in shelters.",
    });
    expect(done.state).toBe("completed");
    expect(done.values.status).toBe("edited");
    expect(done.values.content).toBe(
      "Flooding displaced 1,240 households; 300 are still in shelters.",
    );
    expect(model.calls).toHaveLength(PROBLEM_CRITERIA);
    expect((await reviews.history("e")).map((r) => r.action)).toEqual(["edit"]);
  });

  it("retry is refused where the review does not offer it: the thread stays paused, no judge call", async () => {
    const { reviews, model } = orchestrator();
    const started = await reviews.start(problemInput, { threadId: "y" });
    const first = started.review?.interruptId ?? "";
    expect(started.review?.actions).toEqual(["approve", "revise", "edit"]);
    const refused = await reviews
      .submitDecision("y", first, { action: "retry", reviewer: "ana" })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidDecisionError);
    expect((refused as Error).message).toContain("retry");
    expect(model.calls).toHaveLength(PROBLEM_CRITERIA);
    expect((await reviews.getReview("y"))?.interruptId).toBe(first);
    expect(await reviews.history("y")).toEqual([]);

    const done = await reviews.submitDecision("y", first, { action: "approve", reviewer: "ben" });
    expect(done.state).toBe("completed");
    expect((await reviews.history("y")).map((r) => [r.action, r.reviewer])).toEqual([
      ["approve", "ben"],
    ]);
  });

  it("a retry resumed straight into the graph is refused by the review node where not offered", async () => {
    const { graph, model } = gate();
    const compiled = graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "direct" } };
    await compiled.invoke(problemInput, config);
    const asked = askedAgain(
      await compiled.invoke(new Command({ resume: { action: "retry" } }), config),
    );
    expect(asked.refusal).toMatchObject({ field: "action" });
    expect(model.calls).toHaveLength(PROBLEM_CRITERIA);
    const state = await compiled.getState(config);
    expect(state.next.length).toBeGreaterThan(0);
    expect(state.values.reviewHistory).toEqual([]);
  });

  it("an evaluation_error review is listed with the error, and retry after the fix evaluates", async () => {
    const { model, control } = switchableJudge();
    const reviews = new ReviewOrchestrator({
      graph: buildEvaluationGraph({ model }),
      checkpointer: new MemorySaver(),
    });
    const started = await reviews.start(problemInput, { threadId: "down" });
    expect(started.state).toBe("paused");
    expect(started.review?.type).toBe("evaluation_error");
    // The result is kept: this catalog has only model-judged criteria, each a judge error.
    const kept = started.review?.evaluation;
    expect(kept?.passed).toBe(false);
    expect(kept?.notEvaluated).toHaveLength(PROBLEM_CRITERIA);
    expect(kept?.criteria.map((c) => [c.evaluated, c.score])).toEqual(
      Array.from({ length: PROBLEM_CRITERIA }, () => [false, null]),
    );
    expect(kept?.criteria.every((c) => c.judgeError?.includes("rejected the request"))).toBe(true);
    expect(started.review?.error).toMatch(/\S/);
    expect(started.values.status).toBe("error");
    expect(started.values.errors.join("\n")).toContain("content");

    control.down = false;
    const again = await reviews.submitDecision("down", started.review?.interruptId ?? "", {
      action: "retry",
    });
    expect(again.state).toBe("paused");
    expect(again.review?.type).toBe("evaluation_review");
    expect(again.review?.evaluation?.passed).toBe(true);
  });
});

describe("the revision limit through the orchestrator", () => {
  it("escalates a revise to a revision_limit review, where revise is refused and the thread stays paused", async () => {
    const { graph, model } = researchGraph({ maxRevisions: 0 });
    const reviews = new ReviewOrchestrator({ graph, checkpointer: new MemorySaver() });
    const started = await reviews.start({ rfpDocument: "Coastal flood resilience call." });
    const calls = model.calls.length;
    expect(started.review).toMatchObject({ type: "evaluation_review", contentId: "research" });

    const limit = await reviews.submitDecision(
      started.threadId,
      started.review?.interruptId ?? "",
      {
        action: "revise",
        feedback: "More sources.",
      },
    );
    expect(limit.state).toBe("paused");
    expect(limit.review).toMatchObject({
      type: "revision_limit",
      actions: ["approve", "edit", "retry"],
      revisions: { count: 0, max: 0 },
    });

    const refused = await reviews
      .submitDecision(started.threadId, limit.review?.interruptId ?? "", {
        action: "revise",
        feedback: "Even more sources.",
      })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(InvalidDecisionError);
    expect(refused.message).toContain("revision limit");
    expect((await reviews.getReview(started.threadId))?.interruptId).toBe(
      limit.review?.interruptId,
    );

    const done = await reviews.submitDecision(started.threadId, limit.review?.interruptId ?? "", {
      action: "approve",
      reviewer: "ana",
    });
    expect(done.state).toBe("completed");
    expect(done.values.researchStatus).toBe("approved");
    expect(model.calls).toHaveLength(calls);
    expect((await reviews.history(started.threadId)).map((r) => r.action)).toEqual([
      "revise",
      "approve",
    ]);
  });
});
