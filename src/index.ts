/**
 * `evalgate`: judge content against a criteria catalog, with or without a graph. Catalogs,
 * `evaluateContent`, chat models, judge panels, few-shot examples, the result and its schemas,
 * calibration from reviewers' labels, and the error base; and, for the two most common next steps,
 * the evaluation gate graph and the ReviewOrchestrator.
 *
 * What a user does beyond that has its own subpath: `evalgate/graph` (gate a graph of your own),
 * `evalgate/review` (the orchestrator, the review desk, the review service), `evalgate/store`,
 * `evalgate/rubrics`, `evalgate/blueprints`, `evalgate/evaluators`. docs/library.md lists every
 * subpath; tests/publicSurface.test.ts pins how many names each offers.
 *
 * @example
 * import { evaluateContent, loadCatalog } from "evalgate";
 *
 * const catalog = await loadCatalog("config/evaluation/criteria/budget.json");
 * const result = await evaluateContent({ content, catalog, model: "ollama:qwen2.5:7b-instruct" });
 * if (!result.passed) console.log(result.feedback);
 */

// Calibration: how well the judge agrees with the reviewers, from their decisions.
export {
  type CalibrationLabelSource,
  /** What calibrationReport reads (labels you have, or a store) and which period and content type. */
  type CalibrationReportOptions,
  calibrationReport,
} from "./calibration/labels.js";
export {
  /** The calibration report: per content type and criterion, κ, ρ, the best threshold and the disagreements. */
  type CalibrationReport,
  /** The zod schema of CalibrationReport (what `evalgate calibrate --format json` prints). */
  CalibrationReportSchema,
  /** The result of `calibrate --compare`: figures without and with few-shot examples, per criterion and label. */
  type ComparedCalibration,
  /** The zod schema of ComparedCalibration. */
  ComparedCalibrationSchema,
} from "./calibration/reportModel.js";
// Source documents and retrievers, for evidence the judge reads beside the content.
export type {
  Retriever,
  SourceDocument,
} from "./context/types.js";
// Criteria catalogs: load any catalog form, parse text, check a catalog before use.
export { loadCatalog } from "./criteria/load.js";
export {
  /** A criteria catalog in evalgate's own model: what loadCatalog and parseCatalog return. */
  type Catalog,
  /** A catalog as written, before CatalogSchema fills in its defaults. */
  type CatalogInput,
  /** The zod schema of a catalog: criteria, weights, thresholds, status rules. */
  CatalogSchema,
  /** One criterion of a catalog: its method, weight, threshold and scale. */
  type Criterion,
  /** A criterion as written, before CriterionSchema fills in its defaults. */
  type CriterionInput,
  /** The zod schema of one criterion. */
  CriterionSchema,
  /** How a criterion is judged: by the LLM (score, check, levels, point) or by a function or JSON Schema. */
  type Method,
  /** The kind of a criterion's method (`score`, `check`, `levels`, `point`, `function`, `schema`). */
  type MethodKind,
} from "./criteria/model.js";
export {
  /** The text format parseCatalog reads: `json` or `toon`. */
  type CatalogFormat,
  /** How parseCatalog reads a text: its format and a label for messages. */
  type ParseCatalogOptions,
  parseCatalog,
} from "./criteria/parse.js";
export {
  /** How serious a meta-rubric finding is: `error`, `warning` or `info`. */
  type FindingSeverity,
  type ValidationFinding,
  validateCatalog,
} from "./criteria/validate.js";
// Evaluating content without a graph: the one pipeline every way in uses.
export { evaluateContent } from "./engine/evaluateContent.js";
// The judge cache: answers kept by what was asked.
export {
  type JudgeCacheSetting,
  type JudgeCacheStore,
  MemoryJudgeCacheStore,
} from "./engine/judgeCache.js";
export {
  /** What evaluateContent judges and how: content, catalog, model or judges, mode, documents, cache, few-shot examples. */
  type EvaluateContentOptions,
  /** How criteria are sent to the judge: `auto`, `per-criterion`, `grouped` or `batch`. */
  type EvaluationMode,
  type EvaluationProgress,
  type PanelChoice,
  /** A judge panel's settings as given: the aggregate (median by default) and the agreement below which a human reviews. */
  type PanelOptions,
  PanelSettingsSchema,
} from "./engine/options.js";
// The error base: every error evalgate throws on purpose, with a stable code.
export {
  /** The base of every error evalgate throws on purpose: `code` is stable (docs/errors.md lists each). */
  EvalgateError,
  /** The options of an EvalgateError: the `cause` it wraps. */
  type EvalgateErrorOptions,
  isEvalgateError,
} from "./errors.js";
// The evaluation gate as a graph, and your state with its channels (more in evalgate/graph).
export {
  buildEvaluationGraph,
  EvaluationGateState,
  /** The options of buildEvaluationGraph: the evaluation node's settings (model or judges, threshold, mode, documents, …). */
  type EvaluationGraphOptions,
  withEvaluationGate,
} from "./graph/evaluationGraph.js";
export {
  /** A reviewer's decision on a paused review: approve, revise with feedback, edit, or retry, with corrections. */
  type ReviewDecision,
  /** The zod schema every review checks a resume value against. */
  ReviewDecisionSchema,
} from "./graph/model.js";
// Few-shot examples: reviewers' corrections shown to the judge.
export {
  type ExampleSource,
  inMemoryExampleSource,
} from "./judge/exampleSource.js";
export type {
  /** A reviewer's correction shown to the judge as an example: the content excerpt, the score and why. */
  FewShotExample,
} from "./judge/fewShot.js";
// Chat models from "provider:model" strings (Ollama by default).
export {
  /** The settings of createChatModel: timeouts, retries, fallbacks, servers, temperature, concurrency. */
  type ChatModelOptions,
  createChatModel,
  /** What createChatModel returns: the primary model and its fallbacks, with their retry and timeout settings. */
  type JudgeModel,
  type ModelSource,
} from "./llm/chatModel.js";
// The review orchestrator: start threads, list pending reviews, record decisions (more in
// evalgate/review).
export type { PendingReview } from "./orchestrator/pendingReview.js";
export {
  ReviewOrchestrator,
  /** The options of ReviewOrchestrator: the graph, its checkpointer or database, retention, settings. */
  type ReviewOrchestratorOptions,
  type ThreadOutcome,
} from "./orchestrator/reviewOrchestrator.js";
// Judge panels: the agreement measure, and the panel's part of a result.
export {
  type AgreementMetric,
  krippendorffAlpha,
  scaleAgreement,
} from "./scoring/agreement.js";
export type {
  /** One label: the judge's score and pass/fail on a criterion next to the reviewer's. */
  CalibrationLabel,
} from "./scoring/calibrationLabel.js";
// Results: the EvaluationResult every way in returns, and its parts.
export {
  /** A criterion's panel in a result: each judge's answer, the aggregate, their agreement. */
  type CriterionPanel,
  /** The zod schema of CriterionPanel. */
  CriterionPanelSchema,
  /** One criterion's outcome in a result: score on 0–1 and its own scale, met, reasoning, evidence. */
  type CriterionResult,
  /** The zod schema of CriterionResult. */
  CriterionResultSchema,
  /** The result every way in returns: overall score, verdict, funding status, passed, each criterion, traces. */
  type EvaluationResult,
  /** The zod schema of EvaluationResult. */
  EvaluationResultSchema,
  /** A funding catalog's status: `FUNDABLE`, `REVIEW_REQUIRED` or `REJECTED`. */
  type FundingStatus,
  /** The zod schema of FundingStatus. */
  FundingStatusSchema,
  /** How a panel's answers become one score: `median`, `mean` or `majority`. */
  type PanelAggregate,
  /** One judge's answer in a panel: its model, score and reasoning, or its error. */
  type PanelAnswer,
  /** The panel's part of a result: its judges, settings and the agreement over all criteria. */
  type PanelSummary,
  /** The zod schema of PanelSummary. */
  PanelSummarySchema,
  /** Tokens in and out of the model calls of an evaluation. */
  type TokenUsage,
  /** One model call of an evaluation: the exact prompt, the raw answer, parameters and usage. */
  type Trace,
  /** A result's verdict: `pass` exactly when it passed, `borderline` when close, else `fail`. */
  type Verdict,
  /** The zod schema of Verdict. */
  VerdictSchema,
} from "./scoring/result.js";
// Traces kept beside the checkpoints: every model call of an evaluation or a thread.
export {
  getTraces,
  type TraceQuery,
} from "./store/index.js";
