export {
  type JudgeAnswer,
  JudgeAnswerSchema,
  MAX_LIST_ITEMS,
  toOutcome,
  unusableAnswer,
} from "./answer.js";
export { type AnswerJsonSchema, answerJsonSchema } from "./answerSchema.js";
export {
  formatJudgeLocation,
  JudgeError,
  type JudgeErrorLocation,
  JudgePromptError,
  PromptTemplateError,
  UnjudgedMethodError,
} from "./errors.js";
export { fenceData, fenceId, fenceLines, neutraliseData } from "./fence.js";
export {
  INJECTION_KINDS,
  type InjectionFinding,
  type InjectionKind,
  scanForInjection,
} from "./injection.js";
export {
  type JsonObjectScan,
  type LenientObject,
  type LenientParse,
  type LenientValue,
  parseLenientObject,
  scanJsonObjects,
} from "./lenientJson.js";
export {
  type AnswerContract,
  answerContractOf,
  FREEFORM_CONTRACT,
  parseFreeformResponse,
  parseJudgeResponse,
  parseWithContract,
} from "./parse.js";
export { type BatchParse, parseBatchResponse } from "./parseBatch.js";
export { parseRubricResponse, type RubricAnswer, RubricAnswerSchema } from "./parseRubric.js";
export {
  contentGuidanceFor,
  contentText,
  contextBlock,
  JUDGE_PLACEHOLDERS,
  type JudgePrompt,
  type MethodParts,
  methodParts,
  type RenderFreeformPromptInput,
  type RenderJudgePromptInput,
  type RenderRubricPromptInput,
  renderFreeformPrompt,
  renderJudgePrompt,
  renderRubricPrompt,
} from "./render.js";
export { type RenderBatchPromptInput, renderBatchPrompt } from "./renderBatch.js";
export { type RubricItem, rubricItemOf } from "./rubricItem.js";
export {
  fillTemplate,
  placeholdersOf,
  type TemplatePlaceholder,
  usesPlaceholder,
} from "./template.js";
export {
  appendTraceJsonl,
  type BuildTraceInput,
  buildTrace,
  promptHash,
  responseHash,
} from "./trace.js";
