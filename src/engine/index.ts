/**
 * `evalgate/engine`: evaluating content against a catalog without a graph (the pipeline), and
 * the three evaluation classes on it (a project against a catalog, free-form rubric prompts,
 * levels rubrics), whose results are views of the pipeline's EvaluationResult.
 */
export {
  CriteriaEngine,
  type CriteriaEngineOptions,
  type CriterionEvaluation,
  type CriterionEvaluationOptions,
  CriterionEvaluationSchema,
  DEFAULT_PROJECTS_DIR,
  type ProjectEvaluationOptions,
  toCriterionEvaluation,
} from "./apis/criteriaEngine.js";
export {
  type PromptEvaluation,
  type PromptEvaluationInput,
  PromptEvaluationInputSchema,
  PromptEvaluationSchema,
  PromptEvaluator,
  type PromptEvaluatorOptions,
  type PromptRubricItem,
  type PromptRubricItemInput,
  PromptRubricItemSchema,
  PromptRubricsSchema,
  type PromptVerdict,
  PromptVerdictSchema,
  promptCatalog,
  type RubricItemResult,
  RubricItemResultSchema,
  toPromptEvaluation,
} from "./apis/promptEvaluator.js";
export {
  ERROR_LEVEL_ID,
  type LlmInvocation,
  LlmInvocationSchema,
  type RubricCriterionResult,
  RubricCriterionResultSchema,
  type RubricEvaluateOptions,
  type RubricEvaluation,
  type RubricEvaluationLabels,
  RubricEvaluationSchema,
  RubricExecutor,
  type RubricExecutorOptions,
  type RubricSource,
  rubricCatalog,
  type ScoringMethodUsed,
  ScoringMethodUsedSchema,
  toRubricEvaluation,
  UNABLE_TO_EVALUATE_LEVEL_ID,
} from "./apis/rubricExecutor.js";
export {
  EvaluationError,
  EvaluationModelError,
  ProjectError,
  type ProjectErrorCode,
} from "./errors.js";
export { type EvaluationRun, evaluateContent, runEvaluation } from "./evaluateContent.js";
export type { FewShotOption } from "./fewShotExamples.js";
export {
  type JudgeCacheEntry,
  type JudgeCacheOptions,
  type JudgeCacheSetting,
  type JudgeCacheStore,
  judgeCallKey,
  MemoryJudgeCacheStore,
} from "./judgeCache.js";
export {
  type EvaluateContentOptions,
  type EvaluationMode,
  EvaluationModeSchema,
  type EvaluationProgress,
  type EvaluationSettings,
  EvaluationSettingsSchema,
  type PanelChoice,
  type PanelOptions,
  type PanelSettings,
  PanelSettingsSchema,
  type PipelineFeatures,
  type SummaryMode,
} from "./options.js";
