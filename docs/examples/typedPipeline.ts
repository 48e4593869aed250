import { Annotation, Command, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { buildEvaluationGraph, type ModelSource, withEvaluationGate } from "evalgate";

/** Your pipeline's own state; withEvaluationGate adds the gate's channels in one line. */
export const PipelineState = withEvaluationGate({
  topic: Annotation<string>(),
  draftRound: Annotation<number>({ reducer: (_old, next) => next, default: () => 0 }),
  published: Annotation<string | undefined>(),
});

/** Your writer: the draft for a topic, with the reviewer's feedback when there is some. */
export type Writer = (topic: string, feedback: string | undefined) => Promise<string>;

/** Write → the evaluation gate as a subgraph → publish, or back to the writer on revise. */
export function buildTypedPipeline(write: Writer, judge: ModelSource) {
  const gate = buildEvaluationGraph({ model: judge }).compile();
  return new StateGraph(PipelineState)
    .addNode("write", async (state) => ({
      content: await write(state.topic, state.revisionFeedback.content),
      contentType: "problem_statement",
      draftRound: state.draftRound + 1,
    }))
    .addNode("qualityGate", gate)
    .addNode("publish", (state) => ({
      published: ["approved", "edited"].includes(state.status) ? String(state.content) : undefined,
    }))
    .addEdge(START, "write")
    .addEdge("write", "qualityGate")
    .addConditionalEdges(
      "qualityGate",
      (state) => (state.status === "revision_requested" ? "write" : "publish"),
      ["write", "publish"],
    )
    .addEdge("publish", END);
}

/** Runs the pipeline to the gate's review, approves, and returns what it published. */
export async function publishApproved(write: Writer, judge: ModelSource) {
  const graph = buildTypedPipeline(write, judge).compile({ checkpointer: new MemorySaver() });
  const thread = { configurable: { thread_id: "typed-pipeline" } };
  await graph.invoke({ topic: "flood resilience in Calder Bay" }, thread);
  const done = await graph.invoke(
    new Command({ resume: { action: "approve", reviewer: "you" } }),
    thread,
  );
  return done.published;
}
