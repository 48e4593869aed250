export { criteriaSearchPath, loadStageCatalog, resolveCriteriaFile } from "./criteriaLocation.js";
export {
  type DependencyMap,
  DependencyMapError,
  DependencyMapSchema,
  loadDependencyMap,
  transitiveDependents,
} from "./dependencies.js";
export {
  buildEvaluationGraph,
  EvaluationGateInput,
  EvaluationGateOutput,
  EvaluationGateState,
  type EvaluationGateStateType,
  type EvaluationGraphOptions,
  GATE_NODES,
} from "./evaluationGraph.js";
export {
  type ContentExtractor,
  contentProblem,
  createEvaluationNode,
  type EvaluationNode,
  type EvaluationNodeOptions,
  humanReadable,
  NothingEvaluatedError,
  type ResultValidator,
} from "./evaluationNode.js";
export {
  type AfterEvaluation,
  addEvaluationStage,
  createProposalBuilder,
  type EvaluationStageOptions,
  type GenerateNode,
  needsWork,
  nextStageNode,
  type ProposalGraphBuilder,
  routeAfterEvaluation,
} from "./evaluationStage.js";
export { describeFailure, type EvaluationFailure, type FailureCategory } from "./failure.js";
export { createGenerator, GenerationOutputError, type GeneratorOptions } from "./generators.js";
export * from "./model.js";
export { PACKAGE_CRITERIA_DIR, PACKAGE_DEPENDENCIES_FILE, PACKAGE_ROOT } from "./packagePaths.js";
export {
  buildProposalGraph,
  LOAD_RFP_NODE,
  loadProposalConfig,
  ProposalConfigSchema,
  type ProposalGraphOptions,
  proposalStages,
  RfpLoadError,
  readRfp,
  type SectionConfig,
  SectionConfigSchema,
} from "./proposalGraph.js";
export {
  createReviewNode,
  DEFAULT_MAX_REVISIONS,
  editedValue,
  type NextNode,
  type ReviewNodeOptions,
  type StatusOverrides,
  stageStatus,
} from "./reviewNode.js";
export {
  CONNECTION_PAIRS_STAGE,
  pascalCase,
  RESEARCH_STAGE,
  SOLUTION_STAGE,
  type StageDefinition,
  StageDefinitionSchema,
  type StageNodeNames,
  sectionStage,
  stageNodeNames,
} from "./stages.js";
export * from "./state.js";
export {
  mergeStateUpdates,
  parseStatePath,
  readStatePath,
  type StatePath,
  StatePathError,
  statePathUpdate,
} from "./statePath.js";
