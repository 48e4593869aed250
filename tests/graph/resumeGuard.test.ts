import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it, vi } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { screenedResume, skipIdleResume } from "../../src/graph/resumeGuard.js";
import * as studio from "../../src/graph/studio.js";
import { scoringJudge } from "./helpers.js";

const PROBLEM = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";
const thread = (id: string) => ({ configurable: { thread_id: id } });
const approve = { action: "approve" } as const;

describe("a resume of a thread that is not paused", () => {
  it("runs nothing for a thread that never ran or one that finished, and says it was not applied", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const model = scoringJudge(0.85);
    const graph = skipIdleResume(
      buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() }),
    );
    await graph.invoke(new Command({ resume: approve }), thread("never"));
    expect((await graph.getState(thread("never"))).createdAt).toBeUndefined();
    expect(model.calls).toHaveLength(0);

    await graph.invoke({ content: PROBLEM, contentType: "problem_statement" }, thread("t"));
    const calls = model.calls.length;
    const done = await graph.invoke(new Command({ resume: approve }), thread("t"));
    expect(done.status).toBe("approved");
    const finished = await graph.getState(thread("t"));

    await graph.invoke(
      new Command({ resume: { action: "revise", feedback: "More." } }),
      thread("t"),
    );
    const state = await graph.getState(thread("t"));
    expect(state.config.configurable?.checkpoint_id).toBe(
      finished.config.configurable?.checkpoint_id,
    );
    expect(state.values).toEqual(finished.values);
    expect(state.values.reviewHistory).toHaveLength(1);
    expect(model.calls.length).toBe(calls);
    expect(warned.mock.calls.map(([message]) => String(message))).toEqual([
      "evalgate: an answer for thread 'never' was not applied: it has not started (no checkpoint)",
      "evalgate: an answer for thread 't' was not applied: the run has completed",
    ]);
    warned.mockRestore();
  });

  it("the graphs served to Studio carry the guard once a checkpointer is attached", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (const graph of [studio.evaluation, studio.proposal]) {
      graph.checkpointer = new MemorySaver();
      await graph.invoke(new Command({ resume: approve }), thread("idle"));
      expect((await graph.getState(thread("idle"))).createdAt).toBeUndefined();
    }
    expect(warned).toHaveBeenCalledTimes(2);
    warned.mockRestore();
  });
});

describe("a resume value screened before it is stored", () => {
  const id = "0123456789abcdef0123456789abcdef";

  it("keeps an answer a review takes as it is, alone or in a map", () => {
    const answer = { action: "revise", feedback: "Cite the county report." };
    expect(screenedResume(answer)).toBe(answer);
    const map = { [id]: [{ type: "accept", args: null }] };
    expect(screenedResume(map)).toBe(map);
  });

  it("replaces one no review takes by a stand-in naming the field, never holding the value", () => {
    const secret = `SECRET${"x".repeat(30_000)}`;
    expect(screenedResume({ action: "revise", feedback: secret })).toEqual({
      refusedAnswer: { field: "feedback", problem: "is longer than 20000 characters" },
    });
    const screened = screenedResume({ [id]: { action: "approve", reviewer: "a\nb" } });
    expect(Object.keys(screened as object)).toEqual([id]);
    expect((screened as Record<string, unknown>)[id]).toMatchObject({
      refusedAnswer: { field: "reviewer" },
    });
    expect(JSON.stringify(screenedResume({ type: "response", args: secret }))).not.toContain(
      "SECRET",
    );
    // An Agent Inbox response keeps its type, so the review says how to fix that kind of answer.
    expect(screenedResume([{ type: "edit", args: secret }])).toEqual({
      refusedAnswer: {
        field: "args",
        problem: "Invalid input: expected object, received string",
        type: "edit",
      },
    });
    // Its own stand-in passes as it is (a resume sent again is not screened twice).
    const standIn = screenedResume({ action: "edit" });
    expect(screenedResume(standIn)).toBe(standIn);
  });
});
