export {
  CriteriaEngine,
  type CriteriaEngineOptions,
  type CriterionEvaluation,
  type CriterionEvaluationOptions,
  CriterionEvaluationSchema,
  DEFAULT_PROJECTS_DIR,
  type ProjectEvaluationOptions,
} from "./apis/criteriaEngine.js";
export {
  EmptyProjectError,
  InvalidProjectIdError,
  ProjectError,
  ProjectNotFoundError,
} from "./apis/criteriaEngineErrors.js";
export {
  FREEFORM_TRACE_ID,
  PromptEvaluator,
  type PromptEvaluatorOptions,
} from "./apis/promptEvaluator.js";
export {
  type PromptEvaluation,
  type PromptEvaluationInput,
  PromptEvaluationInputSchema,
  PromptEvaluationSchema,
  type PromptRubricItem,
  type PromptRubricItemInput,
  PromptRubricItemSchema,
  PromptRubricsSchema,
  type PromptVerdict,
  PromptVerdictSchema,
  type RubricItemResult,
  RubricItemResultSchema,
} from "./apis/promptEvaluatorSchema.js";
export {
  NO_LLM_NOTE,
  type RubricEvaluateOptions,
  RubricExecutor,
  type RubricExecutorOptions,
} from "./apis/rubricExecutor.js";
export { type RubricSource, rubricCatalog } from "./apis/rubricExecutorRubric.js";
export {
  ERROR_LEVEL_ID,
  type LlmInvocation,
  LlmInvocationSchema,
  type RubricCriterionResult,
  RubricCriterionResultSchema,
  type RubricEvaluation,
  RubricEvaluationSchema,
  type ScoringMethodUsed,
  ScoringMethodUsedSchema,
  UNABLE_TO_EVALUATE_LEVEL_ID,
} from "./apis/rubricExecutorSchema.js";
export { rubricFeedback, rubricOutcomeLine, rubricSummary } from "./apis/rubricExecutorSummary.js";
export { type BatchJudgement, judgeBatch } from "./batchJudge.js";
export { type ContextProvider, createContextProvider } from "./contextProvider.js";
export {
  INSUFFICIENT_INFORMATION,
  type JudgedCriterion,
  judgeCriterion,
} from "./criterionJudge.js";
export { runDeterministicCriterion } from "./deterministic.js";
export { EvaluationError, EvaluationModelError } from "./errors.js";
export { evaluateContent, resolveJudgeModel } from "./evaluateContent.js";
export { collectFeedback, type Feedback } from "./feedback.js";
export { type JudgeCall, JudgeSession } from "./judgeSession.js";
export {
  type EvaluateContentOptions,
  type EvaluationMode,
  EvaluationModeSchema,
  type EvaluationProgress,
  type EvaluationSettings,
  EvaluationSettingsSchema,
  type SummaryMode,
} from "./options.js";
