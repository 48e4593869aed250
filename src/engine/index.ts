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
