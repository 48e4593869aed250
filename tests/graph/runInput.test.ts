/**
 * A run given an input or a context the graph does not take is refused with an evalgate error
 * that has a code and names the field (LangGraph's own check threw a raw `$ZodError`), before
 * anything runs or is stored — for the proposal graph, the evaluation gate, and a graph of the
 * caller's own built with createProposalBuilder and addEvaluationStage.
 */
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { addEvaluationStage, createProposalBuilder } from "../../src/graph/evaluationStage.js";
import { buildProposalGraph } from "../../src/graph/proposalGraph.js";
import { sectionStage } from "../../src/graph/stages.js";
import { scoringJudge } from "./helpers.js";

/** A graph of the caller's own, as docs/usage-examples.md builds it: one gated section. */
function ownGatedSection() {
  const methodology = sectionStage("methodology", "Methodology");
  const builder = createProposalBuilder();
  const names = addEvaluationStage(builder, {
    stage: methodology,
    stages: [methodology],
    evaluation: { model: scoringJudge() },
  });
  return builder.addEdge("__start__", names.startEvaluate);
}

function refusal(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => {
      throw new Error("expected the run to be refused");
    },
    (error: unknown) => error,
  );
}

describe.each([
  [
    "the evaluation gate",
    () => buildEvaluationGraph(),
    { content: 5, contentType: "" },
    {
      content: "The plan.",
      contentType: "research",
    },
  ],
  [
    "the proposal graph",
    () => buildProposalGraph(),
    { rfpDocument: 5 },
    { rfpDocument: "An RFP." },
  ],
  [
    "a graph of the caller's own with a gated stage",
    ownGatedSection,
    { rfpDocument: 5 },
    { sections: { methodology: { content: "We retrofit 40 homes.", status: "completed" } } },
  ],
])("%s", (_name, build, badInput, goodInput) => {
  it("refuses an input it does not take: GRAPH_INPUT_INVALID naming the field, nothing stored", async () => {
    const checkpointer = new MemorySaver();
    const graph = build().compile({ checkpointer });
    const config = { configurable: { thread_id: "bad-input" } };
    const error = await refusal(() => graph.invoke(badInput as never, config));
    expect(isEvalgateError(error, "GRAPH_INPUT_INVALID")).toBe(true);
    expect((error as Error).message).toMatch(
      /^the graph's input is refused: (content|rfpDocument): /,
    );
    expect((await graph.getState(config)).createdAt).toBeUndefined();
  });

  it("refuses a context it does not take: RUN_CONTEXT_INVALID naming the field, nothing stored", async () => {
    const checkpointer = new MemorySaver();
    const graph = build().compile({ checkpointer });
    const config = { configurable: { thread_id: "bad-context" } };
    for (const context of [{ passingThreshold: 5 }, { maxRevisions: -1 }]) {
      const error = await refusal(() =>
        graph.invoke(goodInput as never, { ...config, context } as never),
      );
      expect(isEvalgateError(error, "RUN_CONTEXT_INVALID")).toBe(true);
      expect((error as Error).message).toMatch(
        /^the run's context is refused: (passingThreshold|maxRevisions): /,
      );
    }
    expect((await graph.getState(config)).createdAt).toBeUndefined();
  });
});
