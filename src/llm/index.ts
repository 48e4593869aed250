export {
  type ModelCallOptions,
  type ModelCandidate,
  ollamaCandidate,
  providerCandidate,
  suppliedCandidate,
} from "./candidate.js";
export {
  type ChatModelOptions,
  createChatModel,
  type JudgeModel,
  type ModelSource,
} from "./chatModel.js";
export { type CheckOllamaOptions, checkOllama, type OllamaStatus } from "./checkOllama.js";
export {
  classifyModelError,
  errorFromStatus,
  isTransient,
  ModelAbortedError,
  ModelCallError,
  ModelContentPolicyError,
  type ModelErrorContext,
  ModelRateLimitError,
  ModelRequestError,
  ModelResponseError,
  ModelSpecError,
  ModelTimeoutError,
  ModelUnavailableError,
  ProviderUnavailableError,
  parseRetryAfter,
  type UnavailableReason,
  UnknownProviderError,
} from "./errors.js";
export { callWithFallback, type FallbackAnswer } from "./fallback.js";
export { invokeJudge, type ModelAnswer } from "./invoke.js";
export { createOllamaChat, ollamaParameters } from "./ollamaChat.js";
export { createOllamaFetch, type OllamaFetchOptions } from "./ollamaFetch.js";
export { PROVIDER_PACKAGES, providerPackageName } from "./providers.js";
export {
  answerText,
  callWithRetries,
  type ModelAttempt,
  type RetryPolicy,
  retryDelayMs,
  sleep,
} from "./retry.js";
export {
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TEMPERATURE,
  DEFAULT_TIMEOUT_MS,
  ModelOptionsError,
  type ModelSettings,
  type ModelSettingsInput,
  type OllamaFormat,
  resolveModelSettings,
} from "./settings.js";
export {
  DEFAULT_OLLAMA_BASE_URL,
  DEFAULT_OLLAMA_MODEL,
  defaultModelSpec,
  defaultOllamaBaseUrl,
  formatModelSpec,
  KNOWN_PROVIDERS,
  type ModelEnv,
  type ModelSpec,
  type ProviderName,
  parseModelSpec,
} from "./spec.js";
