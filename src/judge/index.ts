/**
 * `evalgate/judge`: the judge's prompts and answers, for those who call a model themselves —
 * render a prompt for a criterion, parse (fail closed) what the model answered, fence and scan
 * untrusted content, and trace every call.
 */
export { type JudgeAnswer, JudgeAnswerSchema } from "./answer.js";
export { type AnswerJsonSchema, answerJsonSchema } from "./answerSchema.js";
export {
  formatJudgeLocation,
  JudgeError,
  type JudgeErrorCode,
  type JudgeErrorLocation,
  PromptTemplateError,
  UnjudgedMethodError,
} from "./errors.js";
export {
  EXAMPLE_CANDIDATES,
  type ExampleQuery,
  type ExampleSource,
  exampleOfLabel,
  inMemoryExampleSource,
} from "./exampleSource.js";
export { fenceData } from "./fence.js";
export {
  EXAMPLE_EXCERPT_CHARS,
  EXAMPLE_NOTE_CHARS,
  type FewShotExample,
  FewShotExampleSchema,
  type FewShotSelection,
  renderFewShotBlock,
  selectFewShotExamples,
  wordSetCosine,
} from "./fewShot.js";
export {
  INJECTION_KINDS,
  type InjectionFinding,
  type InjectionKind,
  scanForInjection,
} from "./injection.js";
export { parseJudgeResponse } from "./parse.js";
export { type BatchParse, parseBatchResponse } from "./parseBatch.js";
export { type JudgePrompt, type RenderJudgePromptInput, renderJudgePrompt } from "./render.js";
export { type RenderBatchPromptInput, renderBatchPrompt } from "./renderBatch.js";
export { appendTraceJsonl, type BuildTraceInput, buildTrace } from "./trace.js";
