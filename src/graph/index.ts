/**
 * `evalgate/graph`: gate a LangGraph graph of your own. The evaluation gate graph and your state
 * with its channels, the evaluation and review nodes, `addEvaluationStage` with its routing, the
 * proposal graph, the stages, the proposal state, the decisions a review accepts, and the review
 * of artifacts against a registered rubric as a graph stage.
 */
export {
  /** The options of createArtifactReviewNode: the artifact registry, the artifact type, the state field holding the content. */
  type ArtifactReviewNodeOptions,
  type ArtifactReviewOutcome,
  createArtifactReviewNode,
  routeOnArtifactReview,
} from "./artifactReviewNode.js";
export {
  buildEvaluationGraph,
  EvaluationGateState,
  /** The gate's state as a value: the proposal state's review fields plus content, contentType and evaluation. */
  type EvaluationGateStateType,
  /** The options of buildEvaluationGraph: the evaluation node's settings (model or judges, threshold, mode, documents, …). */
  type EvaluationGraphOptions,
  withEvaluationGate,
} from "./evaluationGraph.js";
export {
  type ContentExtractor,
  createEvaluationNode,
  /** The node createEvaluationNode returns: it judges a stage's content and writes the result into state. */
  type EvaluationNode,
  /** The options of createEvaluationNode: content type, where the content comes from and the result goes, catalog, model or judges, threshold. */
  type EvaluationNodeOptions,
  type ResultValidator,
} from "./evaluationNode.js";
export {
  type AfterEvaluation,
  addEvaluationStage,
  createProposalBuilder,
  /** The options of addEvaluationStage: the stage, every stage of the graph, the generator, evaluation settings. */
  type EvaluationStageOptions,
  type GenerateNode,
  /** The StateGraph builder of the proposal state that createProposalBuilder returns. */
  type ProposalGraphBuilder,
  routeAfterEvaluation,
} from "./evaluationStage.js";
export {
  /** One decision in a thread's history: who decided what, when, on which evaluation, with which corrections. */
  type DecisionRecord,
  /** A stage's status: `not_started`, `running`, `completed`, `evaluating`, `awaiting_review`, `approved`, `revision_requested`, `edited`, `stale` or `error`. */
  type ProcessingStatus,
  /** What a reviewer can do with a review: `approve`, `revise`, `edit` or `retry`. */
  type ReviewAction,
  /** A reviewer's decision on a paused review: approve, revise with feedback, edit, or retry, with corrections. */
  type ReviewDecision,
  /** The zod schema every review checks a resume value against. */
  ReviewDecisionSchema,
  /** One proposal section in state: its content, status, evaluation and feedback. */
  type SectionData,
} from "./model.js";
export {
  buildProposalGraph,
  PROPOSAL_RECURSION_LIMIT,
  /** The options of buildProposalGraph: judge and writer models, sections, dependencies, revision limit, evaluation settings. */
  type ProposalGraphOptions,
} from "./proposalGraph.js";
export type {
  /** The options of createReviewNode: the stage, every stage of the graph, the revision limit. */
  ReviewNodeOptions,
} from "./reviewDecisions.js";
export { createReviewNode } from "./reviewNode.js";
export { RUN_SINKS_KEY, type RunSinks, sinksOfSaver, withRunSinks } from "./runSinks.js";
export {
  /** A stage of a graph: its id, content type, title and where its content lives in state. */
  type StageDefinition,
  /** The node names of a stage (generate, evaluate, review) and the node a gated stage starts at. */
  type StageNodeNames,
  sectionStage,
  stageNodeNames,
} from "./stages.js";
export {
  /** The per-run settings a graph takes as context: model, passing threshold, revision limit, mode. */
  type EvaluationContext,
  /** The zod schema of EvaluationContext; a run given other values is refused. */
  EvaluationContextSchema,
  OverallProposalState,
  /** The proposal state as a value: RFP, research, solution, connection pairs, sections, review history. */
  type OverallProposalStateType,
  /** What the proposal graph takes as input: the RFP document and, optionally, stages already written. */
  type ProposalInput,
} from "./state.js";
