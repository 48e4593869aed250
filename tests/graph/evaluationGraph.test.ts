import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { askedAgain, scoringJudge } from "./helpers.js";

const PROBLEM = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";

function gate(score = 0.85) {
  const model = scoringJudge(score);
  const graph = buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() });
  return { model, graph };
}

const thread = (id: string) => ({ configurable: { thread_id: id } });

describe("buildEvaluationGraph", () => {
  it("evaluates, pauses for review, and finishes approved on approve", async () => {
    const { model, graph } = gate();
    const paused = await graph.invoke(
      { content: PROBLEM, contentType: "problem_statement" },
      thread("a"),
    );
    const interrupts = (paused as { __interrupt__?: Array<{ value: { type: string } }> })
      .__interrupt__;
    expect(interrupts?.[0]?.value.type).toBe("evaluation_review");
    const calls = model.calls.length;
    expect(calls).toBe(5); // the five problem_statement criteria

    const state = await graph.getState(thread("a"));
    expect(state.next).toEqual(["review"]);
    expect(state.values.status).toBe("awaiting_review");
    expect(state.values.isInterrupted).toBe(true);

    const done = await graph.invoke(
      new Command({ resume: { action: "approve", reviewer: "ana" } }),
      thread("a"),
    );
    expect(done.status).toBe("approved");
    expect(done.evaluation?.passed).toBe(true);
    expect(done.reviewHistory).toHaveLength(1);
    expect(done.reviewHistory[0]).toMatchObject({
      action: "approve",
      reviewer: "ana",
      contentId: "content",
    });
    expect(model.calls.length).toBe(calls); // the resume judged nothing again
  });

  it("asks again, without an error, when the resume value is invalid", async () => {
    const { graph } = gate();
    await graph.invoke({ content: PROBLEM, contentType: "problem_statement" }, thread("b"));
    const asked = askedAgain(
      await graph.invoke(new Command({ resume: { action: "revise" } }), thread("b")),
    );
    expect(asked.refusal).toMatchObject({ field: "feedback" });
    expect(asked.refusal.fix).toContain("Write what the writer should change");
    expect((await graph.getState(thread("b"))).next).toEqual(["review"]);
    const done = await graph.invoke(
      new Command({ resume: { action: "revise", feedback: "Add the 2025 figures." } }),
      thread("b"),
    );
    expect(done.status).toBe("revision_requested");
    expect(done.revisionFeedback).toEqual({ content: "Add the 2025 figures." });
  });

  it("edit replaces the content; a retry the review does not offer is refused without a judge call", async () => {
    const { model, graph } = gate();
    await graph.invoke({ content: PROBLEM, contentType: "problem_statement" }, thread("c"));
    const before = model.calls.length;
    const refused = askedAgain(
      await graph.invoke(new Command({ resume: { action: "retry" } }), thread("c")),
    ).refusal;
    expect(refused.problem).toBe("this review offers approve, revise, edit, not retry");
    expect(model.calls.length).toBe(before);
    const done = await graph.invoke(
      new Command({ resume: { action: "edit", content: "Edited problem statement." } }),
      thread("c"),
    );
    expect(done.status).toBe("edited");
    expect(done.content).toBe("Edited problem statement.");
    expect(done.reviewHistory.map((r) => r.action)).toEqual(["edit"]);
  });

  it("ends its run at a revision request, whatever the run's maxRevisions: the gate writes nothing", async () => {
    const { model, graph } = gate();
    const config = { ...thread("r"), context: { maxRevisions: 0 } };
    await graph.invoke({ content: PROBLEM, contentType: "problem_statement" }, config);
    const done = await graph.invoke(
      new Command({ resume: { action: "revise", feedback: "Add the 2025 figures." } }),
      config,
    );
    expect((done as { __interrupt__?: unknown }).__interrupt__).toBeUndefined();
    expect(done.status).toBe("revision_requested");
    expect(done.revisionFeedback).toEqual({ content: "Add the 2025 figures." });
    expect((await graph.getState(thread("r"))).next).toEqual([]);
    expect(model.calls).toHaveLength(5);
  });
});
