/**
 * evalgate's public surface: what a user builds with. Graph builders and the evaluation node,
 * `evaluateContent`, the three evaluation classes, the review orchestrator, catalog loading and
 * validation, chat models, the result types and their schemas, and the error base.
 *
 * Everything else lives behind a subpath named for its folder: `evalgate/judge`, `evalgate/toon`,
 * `evalgate/criteria`, `evalgate/scoring`, `evalgate/checks`, `evalgate/context`, `evalgate/llm`,
 * `evalgate/engine`, `evalgate/graph`, `evalgate/orchestrator`, `evalgate/rubrics`,
 * `evalgate/store`, `evalgate/service`. A name added here is a decision:
 * tests/publicSurface.test.ts pins the list.
 *
 * @example
 * import { evaluateContent, loadCatalog } from "evalgate";
 *
 * const catalog = await loadCatalog("config/evaluation/criteria/budget.json");
 * const result = await evaluateContent({ content, catalog, model: "ollama:qwen2.5:7b-instruct" });
 * if (!result.passed) console.log(result.feedback);
 */

// Source documents and retrievers, for evidence the judge reads beside the content.
export type { Retriever, SourceDocument } from "./context/types.js";
// Criteria catalogs: load any catalog form, parse text, check a catalog before use.
export { loadCatalog } from "./criteria/load.js";
export {
  type Catalog,
  type CatalogInput,
  CatalogSchema,
  type Criterion,
  type CriterionInput,
  CriterionSchema,
  type Method,
  type MethodKind,
} from "./criteria/model.js";
export { type CatalogFormat, type ParseCatalogOptions, parseCatalog } from "./criteria/parse.js";
export {
  type FindingSeverity,
  type ValidationFinding,
  validateCatalog,
} from "./criteria/validate.js";
// Evaluation classes: a project against a catalog, free-form rubric prompts, levels rubrics.
export {
  CriteriaEngine,
  type CriteriaEngineOptions,
  type CriterionEvaluation,
  CriterionEvaluationSchema,
  type ProjectEvaluationOptions,
} from "./engine/apis/criteriaEngine.js";
export {
  type PromptEvaluation,
  type PromptEvaluationInput,
  PromptEvaluationInputSchema,
  PromptEvaluationSchema,
  PromptEvaluator,
  type PromptEvaluatorOptions,
} from "./engine/apis/promptEvaluator.js";
export {
  type RubricEvaluateOptions,
  type RubricEvaluation,
  RubricEvaluationSchema,
  RubricExecutor,
  type RubricExecutorOptions,
  type RubricSource,
} from "./engine/apis/rubricExecutor.js";
// Evaluating content without a graph.
export { evaluateContent } from "./engine/evaluateContent.js";
export type {
  EvaluateContentOptions,
  EvaluationMode,
  EvaluationProgress,
  PanelChoice,
  PanelOptions,
} from "./engine/options.js";
// The error base: every error evalgate throws on purpose, with a stable code.
export { EvalgateError, type EvalgateErrorOptions, isEvalgateError } from "./errors.js";
// Graphs: the evaluation gate, the proposal graph, and the pieces to gate a graph of your own.
export {
  buildEvaluationGraph,
  EvaluationGateState,
  type EvaluationGraphOptions,
  withEvaluationGate,
} from "./graph/evaluationGraph.js";
export {
  createEvaluationNode,
  type EvaluationNode,
  type EvaluationNodeOptions,
} from "./graph/evaluationNode.js";
export {
  addEvaluationStage,
  createProposalBuilder,
  type EvaluationStageOptions,
  type GenerateNode,
  type ProposalGraphBuilder,
  routeAfterEvaluation,
} from "./graph/evaluationStage.js";
export {
  type ProcessingStatus,
  type ReviewDecision,
  ReviewDecisionSchema,
  type SectionData,
} from "./graph/model.js";
export { buildProposalGraph, type ProposalGraphOptions } from "./graph/proposalGraph.js";
export { createReviewNode, type ReviewNodeOptions } from "./graph/reviewNode.js";
export {
  type StageDefinition,
  type StageNodeNames,
  sectionStage,
  stageNodeNames,
} from "./graph/stages.js";
export {
  OverallProposalState,
  type OverallProposalStateType,
  type ProposalInput,
} from "./graph/state.js";
// Chat models from "provider:model" strings (Ollama by default).
export {
  type ChatModelOptions,
  createChatModel,
  type JudgeModel,
  type ModelSource,
} from "./llm/chatModel.js";
// Calibration: how well the judge agrees with the reviewers, from their decisions.
export {
  type CalibrationLabelSource,
  type CalibrationReportOptions,
  calibrationReport,
} from "./orchestrator/calibrationReport.js";
// The review orchestrator: start threads, list pending reviews, record decisions.
export type { PendingReview } from "./orchestrator/pendingReview.js";
export {
  ReviewOrchestrator,
  type ReviewOrchestratorOptions,
  type ThreadOutcome,
} from "./orchestrator/reviewOrchestrator.js";
// Judge panels: the agreement measure, and the panel's part of a result.
export { type AgreementMetric, krippendorffAlpha } from "./scoring/agreement.js";
// Results: the EvaluationResult every path returns, and its parts.
export {
  type CalibrationReport,
  CalibrationReportSchema,
} from "./scoring/calibration/reportSchema.js";
export type { CalibrationLabel } from "./scoring/calibrationLabel.js";
export type {
  CriterionPanel,
  PanelAggregate,
  PanelAnswer,
  PanelSummary,
} from "./scoring/panelResult.js";
export {
  type CriterionResult,
  CriterionResultSchema,
  type EvaluationResult,
  EvaluationResultSchema,
  type FundingStatus,
  FundingStatusSchema,
  type TokenUsage,
  type Trace,
  type Verdict,
  VerdictSchema,
} from "./scoring/result.js";
// Traces kept beside the checkpoints: every model call of an evaluation or a thread.
export { getTraces, type TraceQuery } from "./store/index.js";
