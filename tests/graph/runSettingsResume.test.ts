/**
 * A resume whose run context gives other settings than the thread started with, on the gate as a
 * library user or a LangGraph server runs it: no error (which would put the thread in `error` on a
 * server and out of Agent Inbox) — the thread stays interrupted at the same review, whose re-asked
 * interrupt says why; a resume with the thread's own settings then goes on.
 */
import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { askedAgain, scoringJudge } from "./helpers.js";

const PROBLEM = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";

describe("a resume with other run settings than the thread's", () => {
  it("keeps the thread interrupted at the same review with the reason, then takes the thread's own", async () => {
    const model = scoringJudge(0.85);
    const graph = buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "settings-1" } };
    await graph.invoke(
      { content: PROBLEM, contentType: "problem_statement" },
      { ...thread, context: { passingThreshold: 0.9 } },
    );
    const calls = model.calls.length;
    const before = await graph.getState(thread);
    expect(before.values.evaluation?.passed).toBe(false);

    const asked = askedAgain(
      await graph.invoke(new Command({ resume: { action: "approve", reviewer: "ana" } }), {
        ...thread,
        context: { passingThreshold: 0.8 },
      }),
    );
    expect(asked.refusal.field).toBe("context");
    expect(asked.refusal.problem).toContain(
      "passingThreshold: started with 0.9, this run gives 0.8",
    );
    expect(asked.refusal.fix).toContain("overrideSettings: true");
    expect(asked.description).toContain("passingThreshold: started with 0.9, this run gives 0.8");

    const after = await graph.getState(thread);
    expect(after.next).toEqual(["review"]);
    expect(after.values.isInterrupted).toBe(true);
    expect(after.values.status).toBe("awaiting_review");
    expect(after.values.reviewHistory).toEqual([]);
    expect(after.values.evaluation).toEqual(before.values.evaluation);
    expect(after.values.threadSettings).toEqual(before.values.threadSettings);
    const waiting = after.tasks.flatMap((t) => t.interrupts)[0]?.value as
      | { refusal?: unknown; contentId?: string }
      | undefined;
    expect(waiting?.refusal).toEqual(asked.refusal);
    expect(waiting?.contentId).toBe("content");
    expect(model.calls).toHaveLength(calls);

    // With the thread's own settings (here: none given) the answer is taken.
    const done = await graph.invoke(
      new Command({ resume: { action: "approve", reviewer: "ana" } }),
      thread,
    );
    expect(done.status).toBe("approved");
    expect(done.reviewHistory).toHaveLength(1);
    expect(done.reviewHistory[0]).toMatchObject({ action: "approve", reviewer: "ana" });
    expect(model.calls).toHaveLength(calls);
  });

  it("takes other settings when the resume asks to override them", async () => {
    const model = scoringJudge(0.85);
    const graph = buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "settings-2" } };
    await graph.invoke(
      { content: PROBLEM, contentType: "problem_statement" },
      { ...thread, context: { passingThreshold: 0.9 } },
    );
    const done = await graph.invoke(
      new Command({ resume: { action: "approve", reviewer: "ana" } }),
      {
        configurable: { ...thread.configurable, overrideSettings: true },
        context: { passingThreshold: 0.8 },
      },
    );
    expect(done.status).toBe("approved");
    expect(done.reviewHistory).toHaveLength(1);
  });

  it("asks again, naming the field, when a resume's context is not one the graph takes", async () => {
    const model = scoringJudge(0.85);
    const graph = buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "settings-3" } };
    await graph.invoke({ content: PROBLEM, contentType: "problem_statement" }, thread);
    const before = await graph.getState(thread);
    for (const context of [{ maxRevisions: -1 }, { passingThreshold: "high" }]) {
      const resume = [{ type: "accept", args: null }];
      const asked = askedAgain(
        await graph.invoke(new Command({ resume }), { ...thread, context } as never),
      );
      expect(asked.refusal.field).toBe("context");
      expect(asked.refusal.problem).toMatch(/^is refused: (maxRevisions|passingThreshold): /);
      expect(asked.refusal.fix).toMatch(/^Answer again with a context the graph takes/);
      const state = await graph.getState(thread);
      expect(state.next).toEqual(["review"]);
      expect(state.values.reviewHistory).toEqual([]);
      expect(state.values.threadSettings).toEqual(before.values.threadSettings);
    }
    const done = await graph.invoke(new Command({ resume: { action: "approve" } }), thread);
    expect(done.status).toBe("approved");
  });
});
