// The pipeline's graph: a writer node of its own drafts a problem statement, and evalgate's
// evaluation gate, embedded as a subgraph, judges the draft and pauses for a reviewer. A revision
// request sends the draft back to the writer with the reviewer's feedback.

import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { ChatOllama } from "@langchain/ollama";
import { buildEvaluationGraph } from "evalgate";

/** The pipeline's own state. The gate reads and writes the channels it shares with it. */
export const PipelineState = Annotation.Root({
  topic: Annotation(),
  draftRound: Annotation({ reducer: (_old, next) => next, default: () => 0 }),
  // Shared with the evaluation gate:
  content: Annotation(),
  contentType: Annotation(),
  evaluation: Annotation(),
  status: Annotation(),
  reviewHistory: Annotation(),
  revisionFeedback: Annotation(),
  // The pipeline's result:
  published: Annotation(),
});

function writer() {
  // The same Ollama model and server as the gate's judge: EVALGATE_MODEL and OLLAMA_BASE_URL.
  const model = new ChatOllama({
    model: process.env.EVALGATE_MODEL ?? "qwen2.5:7b-instruct",
    baseUrl: process.env.OLLAMA_BASE_URL ?? "http://127.0.0.1:11434",
    temperature: 0.2,
  });
  return async (state) => {
    const feedback = state.revisionFeedback?.content;
    const prompt = [
      `Write the problem statement of a grant proposal about: ${state.topic}.`,
      "Two short paragraphs: the need, with a number and its source, and who is affected.",
      ...(feedback === undefined ? [] : [`A reviewer asked for changes: ${feedback}`]),
    ].join("\n");
    const answer = await model.invoke([
      ["system", "You are a grant writer. Answer with the section text only."],
      ["human", prompt],
    ]);
    return {
      content: String(answer.content).trim(),
      contentType: "problem_statement",
      draftRound: state.draftRound + 1,
    };
  };
}

/** What the pipeline does once the reviewer has decided. */
function publish(state) {
  const accepted = state.status === "approved" || state.status === "edited";
  return { published: accepted ? String(state.content) : undefined };
}

/** The pipeline, not yet compiled: compile it with a checkpointer (or let Studio do it). */
export function buildPipeline() {
  const gate = buildEvaluationGraph().compile();
  return new StateGraph(PipelineState)
    .addNode("write", writer())
    .addNode("qualityGate", gate)
    .addNode("publish", publish)
    .addEdge(START, "write")
    .addEdge("write", "qualityGate")
    .addConditionalEdges(
      "qualityGate",
      (state) => (state.status === "revision_requested" ? "write" : "publish"),
      ["write", "publish"],
    )
    .addEdge("publish", END);
}

/** For LangGraph Studio (langgraph.json): the server brings its own checkpointer. */
export const graph = buildPipeline().compile();
