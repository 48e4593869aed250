/**
 * `evalgate/graph`: LangGraph pieces — the proposal state and its schemas, the evaluation and
 * review nodes, `addEvaluationStage` and its routing, the proposal graph and the evaluation gate
 * graph, and the dependency map that marks content stale after an edit.
 */
export {
  type ArtifactReviewNodeOptions,
  type ArtifactReviewOutcome,
  createArtifactReviewNode,
  routeOnArtifactReview,
} from "./artifactReviewNode.js";
export {
  type DependencyMap,
  DependencyMapSchema,
  loadDependencyMap,
  transitiveDependents,
} from "./dependencies.js";
export {
  DependencyMapError,
  GenerationOutputError,
  GraphError,
  type GraphErrorCode,
  isGraphError,
  NothingEvaluatedError,
  RfpLoadError,
  StatePathError,
} from "./errors.js";
export type { EvaluationFewShot } from "./evaluationFewShot.js";
export {
  buildEvaluationGraph,
  EvaluationGateInput,
  EvaluationGateOutput,
  EvaluationGateState,
  type EvaluationGateStateType,
  type EvaluationGraphOptions,
  GATE_NODES,
  withEvaluationGate,
} from "./evaluationGraph.js";
export {
  type ContentExtractor,
  createEvaluationNode,
  type EvaluationNode,
  type EvaluationNodeOptions,
  type ResultValidator,
} from "./evaluationNode.js";
export {
  type AfterEvaluation,
  addEvaluationStage,
  createProposalBuilder,
  type EvaluationStageOptions,
  type GenerateNode,
  type ProposalGraphBuilder,
  routeAfterEvaluation,
} from "./evaluationStage.js";
export type { EvaluationFailure, FailureCategory } from "./failure.js";
export { createGenerator, type GeneratorOptions } from "./generators.js";
export * from "./model.js";
export {
  buildProposalGraph,
  loadProposalConfig,
  PROPOSAL_RECURSION_LIMIT,
  ProposalConfigSchema,
  type ProposalGraphOptions,
  proposalStages,
  type SectionConfig,
  SectionConfigSchema,
} from "./proposalGraph.js";
export {
  createReviewNode,
  DEFAULT_MAX_REVISIONS,
  type NextNode,
  type ReviewNodeOptions,
  type StatusOverrides,
} from "./reviewNode.js";
export { RUN_SINKS_KEY, type RunSinks, sinksOfSaver, withRunSinks } from "./runSinks.js";
export {
  CONNECTION_PAIRS_STAGE,
  RESEARCH_STAGE,
  SOLUTION_STAGE,
  type StageDefinition,
  StageDefinitionSchema,
  type StageNodeNames,
  sectionStage,
  stageNodeNames,
} from "./stages.js";
export {
  type EvaluationContext,
  EvaluationContextSchema,
  evaluationContext,
  OverallProposalState,
  type OverallProposalStateType,
  type OverallProposalStateUpdate,
  type ProposalInput,
  ProposalInputSchema,
  type ProposalUpdate,
} from "./state.js";
export type { StatePath } from "./statePath.js";
