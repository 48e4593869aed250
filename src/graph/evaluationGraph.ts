import {
  Annotation,
  END,
  type LangGraphRunnableConfig,
  START,
  type StateDefinition,
  StateGraph,
} from "@langchain/langgraph";
import { z } from "zod";
import type { EvaluationResult } from "../scoring/result.js";
import { createEvaluationNode, type EvaluationNodeOptions } from "./evaluationNode.js";
import { createEvaluationStartNode, routeAfterEvaluation } from "./evaluationStage.js";
import type { DecisionRecord, ProcessingStatus } from "./model.js";
import { checkingRuns } from "./resumeGuard.js";
import { createReviewNode } from "./reviewNode.js";
import type { StageDefinition } from "./stages.js";
import { EvaluationContextSchema, GraphContextSchema, OverallProposalState } from "./state.js";

/** The gate's input: the content, its type and optionally its criteria file (a zod object for Studio). */
const EvaluationGateInput = z.object({
  content: z
    .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .describe("The content to evaluate: text, or structured JSON data"),
  contentType: z
    .string()
    .min(1)
    .describe("research, solution, connection_pairs, problem_statement, methodology, budget, …"),
  criteriaPath: z
    .string()
    .optional()
    .describe(
      "A JSON or TOON criteria catalog inside the criteria folders (default: <contentType>.json)",
    ),
});

/** The gate's state: the proposal state's HITL fields plus the content and its evaluation. */
export const EvaluationGateState = Annotation.Root({
  ...OverallProposalState.spec,
  content: Annotation<unknown>(),
  contentType: Annotation<string>(),
  criteriaPath: Annotation<string | undefined>(),
  evaluation: Annotation<EvaluationResult | null | undefined>(),
  status: Annotation<ProcessingStatus>({ reducer: (_c, u) => u, default: () => "not_started" }),
});
export type EvaluationGateStateType = typeof EvaluationGateState.State;

/**
 * A pipeline's own state with the evaluation gate's channels added, so the compiled gate type-checks
 * as one of its nodes.
 * @example
 * const PipelineState = withEvaluationGate({ topic: Annotation<string>() });
 */
export function withEvaluationGate<Own extends StateDefinition>(own: Own) {
  return Annotation.Root({ ...EvaluationGateState.spec, ...own });
}

/** What the gate returns: the evaluation, the status, the decisions, and the (possibly edited) content. */
const EvaluationGateOutput = Annotation.Root({
  content: Annotation<unknown>(),
  evaluation: Annotation<EvaluationResult | null | undefined>(),
  status: Annotation<ProcessingStatus>(),
  reviewHistory: Annotation<DecisionRecord[]>(),
  revisionFeedback: Annotation<Record<string, string>>(),
  errors: Annotation<string[]>(),
});

const GATE_NODES = {
  startEvaluate: "startEvaluate",
  evaluate: "evaluate",
  review: "review",
} as const;

function gateStage(contentType: string): StageDefinition {
  return {
    id: "content",
    contentType,
    title: contentType,
    contentPath: "content",
    statusField: "status",
    resultField: "evaluation",
    criteriaPath: `${contentType}.json`,
  };
}

export type EvaluationGraphOptions = Partial<
  Omit<EvaluationNodeOptions, "contentType" | "contentExtractor" | "resultField" | "statusField">
>;

/**
 * The gate on its own: evaluate the content against its criteria, pause for the reviewer, return the
 * evaluation, the status and the decision history. Usable as a subgraph.
 * @example
 * const gate = buildEvaluationGraph({ model: "ollama:qwen2.5:7b" }).compile({ checkpointer });
 */
export function buildEvaluationGraph(options: EvaluationGraphOptions = {}) {
  const evaluate = async (state: EvaluationGateStateType, config?: LangGraphRunnableConfig) => {
    const contentType = state.contentType ?? "content";
    const node = createEvaluationNode({
      ...options,
      contentType,
      contentId: "content",
      criteriaPath: state.criteriaPath ?? options.criteriaPath ?? `${contentType}.json`,
      // A criteriaPath in the input comes from any client: confined to the criteria folders.
      criteriaPathFromInput: state.criteriaPath !== undefined,
      contentExtractor: (s) => (s as EvaluationGateStateType).content,
      resultField: "evaluation",
      statusField: "status",
    });
    return node(state, config);
  };
  const review = (state: EvaluationGateStateType, config?: LangGraphRunnableConfig) =>
    createReviewNode({
      stage: gateStage(state.contentType ?? "content"),
      stages: [],
      evaluateNode: GATE_NODES.startEvaluate,
      reviewNode: GATE_NODES.review,
      next: () => END,
    })(state, config);

  // Every graph compiled from it refuses an answer no review takes before anything is stored.
  const builder = new StateGraph(EvaluationGateState, {
    input: EvaluationGateInput,
    output: EvaluationGateOutput,
    context: GraphContextSchema,
  })
    .addNode(GATE_NODES.startEvaluate, createEvaluationStartNode("status"))
    .addNode(GATE_NODES.evaluate, evaluate)
    .addNode(GATE_NODES.review, review, {
      ends: [GATE_NODES.startEvaluate, GATE_NODES.review, END],
    })
    .addEdge(START, GATE_NODES.startEvaluate)
    .addEdge(GATE_NODES.startEvaluate, GATE_NODES.evaluate)
    .addConditionalEdges(
      GATE_NODES.evaluate,
      (state) =>
        routeAfterEvaluation(state, gateStage(state.contentType ?? "content")) === "continue"
          ? END
          : GATE_NODES.review,
      [GATE_NODES.review, END],
    );
  return checkingRuns(builder, {
    input: EvaluationGateInput,
    context: EvaluationContextSchema,
    alwaysPauses: true,
  });
}
