// A consumer's TypeScript, type-checked against the installed package's .d.ts files
// (module and moduleResolution nodenext, strict). Every @ts-expect-error must meet an error: if
// the types were missing or `any`, these lines would fail the check.
import { Annotation, START, StateGraph } from "@langchain/langgraph";
import {
  buildEvaluationGraph,
  type EvaluationResult,
  evaluateContent,
  loadCatalog,
  type ReviewDecision,
  withEvaluationGate,
} from "evalgate";
import { createEvaluationNode } from "evalgate/graph";
import type { ReviewStore, ThreadState } from "evalgate/store";
import { DESK_GRAPH } from "evalgate/store";

export async function judge(text: string): Promise<boolean> {
  const catalog = await loadCatalog("criteria/budget.json");
  const result: EvaluationResult = await evaluateContent({
    content: text,
    catalog,
    model: "ollama:qwen2.5:7b-instruct",
  });
  return result.passed;
}

export const node = createEvaluationNode({
  contentType: "budget",
  criteriaPath: "budget.json",
  contentExtractor: (state) => (state as { draft?: string }).draft,
  resultField: "budgetEvaluation",
  statusField: "budgetStatus",
});
export const gate = buildEvaluationGraph().compile();

// A pipeline of its own state embeds the gate as a node: its channels added in one line.
const PipelineState = withEvaluationGate({ topic: Annotation<string>() });
export const pipeline = new StateGraph(PipelineState)
  .addNode("qualityGate", gate)
  .addEdge(START, "qualityGate");
const Clashing = Annotation.Root({ topic: Annotation<string>(), status: Annotation<number>() });
// @ts-expect-error a state whose channels clash with the gate's cannot take it as a node
export const clash = new StateGraph(Clashing).addNode("qualityGate", gate);
export const approve: ReviewDecision = { action: "approve" };
export const desk: string = DESK_GRAPH;
export const waiting: ThreadState = "waiting";
export type Store = ReviewStore;

// @ts-expect-error passed is a boolean
export const wrong: EvaluationResult["passed"] = "yes";
// @ts-expect-error no such decision
export const unknown: ReviewDecision = { action: "publish" };
