/**
 * `evalgate/llm`: chat models from `provider:model` strings (Ollama by default) with timeouts,
 * retries and fallbacks, a ceiling on calls in flight per model server shared fairly by the
 * evaluations of the process, judge pools over several servers (Ollama and OpenAI-compatible),
 * the Ollama health check, and the model-call errors.
 */
export { CallLane, createCallLane } from "./callCeiling.js";
export {
  type ChatModelOptions,
  createChatModel,
  type JudgeModel,
  type ModelSource,
  withLane,
} from "./chatModel.js";
export { type CheckOllamaOptions, checkOllama, type OllamaStatus } from "./checkOllama.js";
export {
  isTransient,
  parseRetryAfter,
} from "./classifyError.js";
export {
  ModelAbortedError,
  ModelCallError,
  ModelContentPolicyError,
  type ModelErrorContext,
  ModelOptionsError,
  ModelRateLimitError,
  ModelRequestError,
  ModelResponseError,
  ModelSpecError,
  ModelTimeoutError,
  ModelUnavailableError,
  ProviderUnavailableError,
  type UnavailableReason,
  UnknownProviderError,
} from "./errors.js";
export { OPENAI_COMPATIBLE_API_KEY_ENV } from "./openaiCompatible.js";
export { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_QUEUE_WAIT_MS } from "./serverCeilings.js";
export { DEFAULT_SERVER_COOLDOWN_MS } from "./serverHealth.js";
export {
  MAX_POOL_SERVERS,
  POOL_PROVIDERS,
  type PoolProvider,
  type ServerInput,
  type ServerObject,
} from "./serverList.js";
export {
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TEMPERATURE,
  DEFAULT_TIMEOUT_MS,
  type ModelSettings,
  type ModelSettingsInput,
  type OllamaFormat,
  resolveModelSettings,
} from "./settings.js";
export {
  DEFAULT_OLLAMA_BASE_URL,
  DEFAULT_OLLAMA_MODEL,
  defaultModelSpec,
  formatModelSpec,
  KNOWN_PROVIDERS,
  type ModelEnv,
  type ModelSpec,
  type ProviderName,
  parseModelSpec,
} from "./spec.js";
