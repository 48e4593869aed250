import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { GraphError } from "../../src/graph/errors.js";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { rejectIdleResume } from "../../src/graph/resumeGuard.js";
import * as studio from "../../src/graph/studio.js";
import { scoringJudge } from "./helpers.js";

const PROBLEM = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";
const thread = (id: string) => ({ configurable: { thread_id: id } });
const approve = { action: "approve" } as const;

describe("a resume of a thread that is not paused", () => {
  it("is an error for a thread that never ran, and for one that finished", async () => {
    const model = scoringJudge(0.85);
    const graph = rejectIdleResume(
      buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() }),
    );
    const unknown = await graph
      .invoke(new Command({ resume: approve }), thread("never"))
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(GraphError);
    expect(isEvalgateError(unknown, "RESUME_WITHOUT_PAUSE")).toBe(true);
    expect(model.calls).toHaveLength(0);

    await graph.invoke({ content: PROBLEM, contentType: "problem_statement" }, thread("t"));
    const calls = model.calls.length;
    const done = await graph.invoke(new Command({ resume: approve }), thread("t"));
    expect(done.status).toBe("approved");

    const again = graph.stream(new Command({ resume: approve }), thread("t"));
    await expect(again).rejects.toMatchObject({ code: "RESUME_WITHOUT_PAUSE" });
    const state = await graph.getState(thread("t"));
    expect(state.values.reviewHistory).toHaveLength(1);
    expect(model.calls.length).toBe(calls);
  });

  it("the graphs served to Studio carry the guard once a checkpointer is attached", async () => {
    for (const graph of [studio.evaluation, studio.proposal]) {
      graph.checkpointer = new MemorySaver();
      const error = await graph
        .invoke(new Command({ resume: approve }), thread("idle"))
        .catch((e: unknown) => e);
      expect(isEvalgateError(error, "RESUME_WITHOUT_PAUSE")).toBe(true);
    }
  });
});
