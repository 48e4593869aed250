/**
 * createChatModel: the judge's model — a primary model and its fallbacks, each built from a
 * `provider:model` spec (Ollama by default) or a LangChain chat model supplied as is, with the
 * retry policy and timeout every call uses. Building does no I/O; providers load on first call.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type CallLane, createCallLane } from "./callCeiling.js";
import { type ModelCandidate, providerCandidate, suppliedCandidate } from "./candidate.js";
import type { RetryPolicy } from "./retry.js";
import { type ModelSettings, type ModelSettingsInput, resolveModelSettings } from "./settings.js";
import { defaultModelSpec, parseModelSpec } from "./spec.js";

/** A model: a `provider:model` string or a LangChain chat model. */
export type ModelSource = string | BaseChatModel;

export interface ChatModelOptions extends ModelSettingsInput {
  /** Models tried, in order, when the primary one keeps failing. */
  fallbackModels?: readonly ModelSource[];
}

export interface JudgeModel {
  /** The primary model first, then the fallbacks. */
  readonly candidates: readonly ModelCandidate[];
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly settings: ModelSettings;
}

function candidateFor(source: ModelSource, settings: ModelSettings): ModelCandidate {
  if (source instanceof BaseChatModel) return suppliedCandidate(source, settings);
  return providerCandidate(parseModelSpec(source), settings);
}

/**
 * Builds the judge model. `spec` defaults to `ollama:<EVALGATE_MODEL or qwen2.5:7b-instruct>`;
 * the Ollama server to OLLAMA_BASE_URL or http://127.0.0.1:11434 (read from `options.env`, else
 * process.env). Throws ModelSpecError / UnknownProviderError / ModelOptionsError right away.
 *
 * @example
 * const judge = createChatModel("ollama:qwen2.5:7b-instruct", { timeoutMs: 30_000 });
 * const result = await evaluateContent({ content, catalog, model: judge });
 */
export function createChatModel(spec?: ModelSource, options: ChatModelOptions = {}): JudgeModel {
  const { fallbackModels = [], ...settingsInput } = options;
  const settings = resolveModelSettings(settingsInput);
  const primary = spec ?? defaultModelSpec(settings.env);
  const candidates = [primary, ...fallbackModels].map((source) => candidateFor(source, settings));
  return {
    candidates,
    retry: {
      maxRetries: settings.maxRetries,
      baseDelayMs: settings.retryBaseDelayMs,
      maxDelayMs: settings.retryMaxDelayMs,
      maxRetryAfterMs: settings.maxRetryAfterMs,
    },
    timeoutMs: settings.timeoutMs,
    settings,
  };
}

/**
 * The same judge with the caller's deadline for every call: a ready-made model keeps its
 * providers, retries and fallbacks, and each call is given `timeoutMs` instead of its own.
 */
export function withTimeout(judge: JudgeModel, timeoutMs: number): JudgeModel {
  if (judge.timeoutMs === timeoutMs) return judge;
  const candidates = judge.candidates.map(
    (candidate): ModelCandidate => ({
      ...candidate,
      parameters: { ...candidate.parameters, timeoutMs },
      call: (messages, options = {}) =>
        candidate.call(messages, { ...options, timeoutMs: options.timeoutMs ?? timeoutMs }),
    }),
  );
  return { ...judge, candidates, timeoutMs, settings: { ...judge.settings, timeoutMs } };
}

/**
 * The same judge with its calls queued in `lane` at their server's ceiling on calls in flight:
 * give each evaluation its own lane, so that evaluations take turns for the server's slots. A
 * lane given by the caller of a call (or by a later withLane) wins over this one.
 */
export function withLane(judge: JudgeModel, lane: CallLane = createCallLane()): JudgeModel {
  const candidates = judge.candidates.map(
    (candidate): ModelCandidate => ({
      ...candidate,
      call: (messages, options = {}) =>
        candidate.call(messages, { ...options, lane: options.lane ?? lane }),
    }),
  );
  return { ...judge, candidates };
}

/**
 * The same judge with every call also cancelled by `signal` (a command's Ctrl-C): a call under way
 * is aborted (its request ends; the embedded model stops decoding) and rejects with
 * ModelAbortedError, and a call made after the signal fired is refused the same way. A call's own
 * signal still cancels it too.
 */
export function withSignal(judge: JudgeModel, signal: AbortSignal): JudgeModel {
  const candidates = judge.candidates.map(
    (candidate): ModelCandidate => ({
      ...candidate,
      call: (messages, options = {}) =>
        candidate.call(messages, {
          ...options,
          signal: options.signal === undefined ? signal : AbortSignal.any([options.signal, signal]),
        }),
    }),
  );
  return { ...judge, candidates };
}
