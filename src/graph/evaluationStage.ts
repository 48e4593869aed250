import { AIMessage } from "@langchain/core/messages";
import { END, type LangGraphRunnableConfig, StateGraph } from "@langchain/langgraph";
import { createEvaluationNode, type EvaluationNodeOptions } from "./evaluationNode.js";
import { ACCEPTED_STATUSES } from "./model.js";
import type { DependencyMap } from "./proposalConfig.js";
import { checkingRuns } from "./resumeGuard.js";
import { type NextNode, stageEvaluation, stageStatus } from "./reviewDecisions.js";
import { createReviewNode, DEFAULT_MAX_REVISIONS } from "./reviewNode.js";
import { type StageDefinition, stageNodeNames } from "./stages.js";
import {
  type EvaluationContext,
  EvaluationContextSchema,
  GraphContextSchema,
  OverallProposalState,
  type OverallProposalStateType,
  ProposalInputSchema,
  type ProposalUpdate,
  runContext,
} from "./state.js";
import { mergeStateUpdates, parseStatePath, readStatePath, statePathUpdate } from "./statePath.js";

/** Where the graph goes after an evaluation. */
export type AfterEvaluation = "review" | "revise" | "continue";

/**
 * Routes after an evaluation: `continue` when already accepted, `revise` when a revision was
 * requested, `review` otherwise (errors included).
 */
export function routeAfterEvaluation(
  state: OverallProposalStateType,
  stage: StageDefinition,
): AfterEvaluation {
  const status = stageStatus(state, stage);
  if (ACCEPTED_STATUSES.has(status)) return "continue";
  if (status === "revision_requested") return "revise";
  return "review";
}

/** The first stage after `after` that needs work, as its entry node; END when none. */
export function nextStageNode(
  stages: readonly StageDefinition[],
  after: string | undefined,
  hasGenerator: (stage: StageDefinition) => boolean = () => true,
): NextNode {
  const start = after === undefined ? 0 : stages.findIndex((s) => s.id === after) + 1;
  return (state, overrides) => {
    for (const stage of stages.slice(start)) {
      const status = overrides[stage.id] ?? stageStatus(state, stage);
      if (ACCEPTED_STATUSES.has(status)) continue;
      const names = stageNodeNames(stage);
      return hasGenerator(stage) ? names.generate : names.startEvaluate;
    }
    return END;
  };
}

/**
 * The node before a stage's evaluation that writes `evaluating`: LangGraph checkpoints between nodes,
 * so the checkpoint the evaluation runs from (what a crash or `getState` finds) says `evaluating`.
 */
export function createEvaluationStartNode(statusField: string): () => ProposalUpdate {
  const statusPath = parseStatePath(statusField);
  return () => statePathUpdate(statusPath, "evaluating");
}

/** A node that writes a stage's content: a generator (a model call) for the proposal graph. */
export type GenerateNode = (
  state: OverallProposalStateType,
  config?: LangGraphRunnableConfig,
) => Promise<ProposalUpdate>;

export interface EvaluationStageOptions {
  stage: StageDefinition;
  stages: readonly StageDefinition[];
  /** The generator; without one the stage evaluates the content already in state. */
  generate?: GenerateNode;
  /** Evaluation settings (model, timeout, concurrency, prompt, validator, …). */
  evaluation?: Partial<Omit<EvaluationNodeOptions, "contentType" | "resultField" | "statusField">>;
  dependencies?: DependencyMap;
  maxRevisions?: number;
  /** Accept content that passes without asking the reviewer. */
  autoApprove?: boolean;
  /** Send content that fails back to its generator with the evaluation's feedback. */
  autoRevise?: boolean;
  /** Where to go after approve / edit; default: the next stage needing work. */
  next?: NextNode;
}

function autoDecide(
  options: EvaluationStageOptions,
  state: OverallProposalStateType,
  update: ProposalUpdate,
  context: EvaluationContext,
): ProposalUpdate {
  const { stage } = options;
  // The evaluation this run wrote, awaiting review: nothing is decided on an older one, nor on
  // one that failed (where nothing could be evaluated it is kept, with status error).
  const written = { sections: {}, ...update } as OverallProposalStateType;
  const evaluation = stageEvaluation(written, stage);
  const statusPath = parseStatePath(stage.statusField);
  const judged = readStatePath(written, statusPath) === "awaiting_review";
  if (!judged || typeof evaluation?.passed !== "boolean") return update;
  const max =
    context.maxRevisions ??
    state.threadSettings?.maxRevisions ??
    options.maxRevisions ??
    DEFAULT_MAX_REVISIONS;
  const cleared = { isInterrupted: false, interruptMetadata: null };
  if (evaluation.passed && options.autoApprove === true) {
    return mergeStateUpdates(update, statePathUpdate(statusPath, "approved"), cleared, {
      messages: [new AIMessage(`${stage.title} passed and was approved automatically.`)],
    });
  }
  const count = state.revisionCounts[stage.id] ?? 0;
  if (
    !evaluation.passed &&
    options.autoRevise === true &&
    options.generate !== undefined &&
    count < max
  ) {
    const feedback = [...evaluation.weaknesses, ...evaluation.suggestions].join("\n");
    return mergeStateUpdates(update, statePathUpdate(statusPath, "revision_requested"), cleared, {
      revisionCounts: { [stage.id]: count + 1 },
      revisionFeedback: { [stage.id]: feedback },
      messages: [
        new AIMessage(`${stage.title} did not pass: revising automatically (${count + 1}/${max}).`),
      ],
    });
  }
  return update;
}

/**
 * A builder over OverallProposalState with string node names (what buildProposalGraph uses). Every
 * graph compiled from it checks its runs' input and context and screens resume values (checkingRuns).
 */
export function createProposalBuilder() {
  const nodes: string[] = [];
  const shape = { input: ProposalInputSchema, context: EvaluationContextSchema };
  const options = { input: ProposalInputSchema, context: GraphContextSchema, nodes };
  return checkingRuns(new StateGraph(OverallProposalState, options), shape);
}
export type ProposalGraphBuilder = ReturnType<typeof createProposalBuilder>;

function laterStageTargets(options: EvaluationStageOptions): string[] {
  const { stage } = options;
  const later = options.stages.slice(options.stages.findIndex((s) => s.id === stage.id) + 1);
  const entry = (s: StageDefinition) =>
    options.generate === undefined ? stageNodeNames(s).startEvaluate : stageNodeNames(s).generate;
  return [...later.map(entry), END];
}

function stageEvaluationNode(options: EvaluationStageOptions) {
  const { stage } = options;
  const contentPath = parseStatePath(stage.contentPath);
  const evaluate = createEvaluationNode({
    criteriaPath: stage.criteriaPath,
    contentExtractor: (state) => readStatePath(state, contentPath),
    contentId: stage.id,
    title: stage.title,
    ...options.evaluation,
    contentType: stage.contentType,
    resultField: stage.resultField,
    statusField: stage.statusField,
  });
  return async (state: OverallProposalStateType, config?: LangGraphRunnableConfig) => {
    const update = await evaluate(state, config);
    return autoDecide(options, state, update, runContext(config));
  };
}

/**
 * Adds a stage: generate → startEvaluate → evaluate → review, every edge declared so Studio draws it.
 * Returns the node names; a stage without a generator is entered at `startEvaluate`.
 * @example
 * const methodology = sectionStage("methodology", "Methodology");
 * const builder = createProposalBuilder();
 * const names = addEvaluationStage(builder, { stage: methodology, stages: [methodology] });
 * builder.addEdge("__start__", names.startEvaluate);
 */
export function addEvaluationStage(builder: ProposalGraphBuilder, options: EvaluationStageOptions) {
  const { stage } = options;
  const names = stageNodeNames(stage);
  const next =
    options.next ?? nextStageNode(options.stages, stage.id, () => options.generate !== undefined);
  const laterTargets = laterStageTargets(options);
  const review = createReviewNode({
    stage,
    stages: options.stages,
    dependencies: options.dependencies,
    generateNode: options.generate === undefined ? undefined : names.generate,
    evaluateNode: names.startEvaluate,
    reviewNode: names.review,
    next,
    maxRevisions: options.maxRevisions,
  });

  const generator = options.generate === undefined ? [] : [names.generate];
  const reviewEnds = [...generator, names.startEvaluate, names.review, ...laterTargets];
  if (options.generate !== undefined) {
    builder.addNode(names.generate, options.generate);
    // A failed generation goes straight to the reviewer (who can retry it); content is evaluated.
    builder.addConditionalEdges(
      names.generate,
      (state: OverallProposalStateType) =>
        stageStatus(state, stage) === "error" ? names.review : names.startEvaluate,
      [names.startEvaluate, names.review],
    );
  }
  builder.addNode(names.startEvaluate, createEvaluationStartNode(stage.statusField));
  builder.addEdge(names.startEvaluate, names.evaluate);
  builder.addNode(names.evaluate, stageEvaluationNode(options));
  builder.addNode(names.review, review, { ends: [...new Set(reviewEnds)] });
  const afterEvaluationTargets = [names.review, ...generator, ...laterTargets];
  builder.addConditionalEdges(
    names.evaluate,
    (state: OverallProposalStateType) => {
      const route = routeAfterEvaluation(state, stage);
      if (route === "review") return names.review;
      if (route === "revise") return options.generate === undefined ? names.review : names.generate;
      return next(state, {});
    },
    [...new Set(afterEvaluationTargets)],
  );
  return names;
}
