/**
 * createChatModel: the judge's model — a primary model and its fallbacks, with the retry policy
 * and timeout every call uses. Building does no I/O; providers load on first call.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type CallLane, createCallLane } from "./callCeiling.js";
import { providerCandidate, suppliedCandidate } from "./candidate.js";
import type { ModelCallOptions, ModelCandidate } from "./modelCandidate.js";
import { type ModelSettings, type ModelSettingsInput, resolveModelSettings } from "./settings.js";
import { defaultModelSpec, parseModelSpec } from "./spec.js";

/** A model: a `provider:model` string or a LangChain chat model. */
export type ModelSource = string | BaseChatModel;

export interface ChatModelOptions extends ModelSettingsInput {
  /** Models tried, in order, when the primary one keeps failing. */
  fallbackModels?: readonly ModelSource[];
}

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
}

export interface JudgeModel {
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
 * Builds the judge model: `spec` defaults to `ollama:<EVALGATE_MODEL or qwen2.5:7b-instruct>`,
 * the server to OLLAMA_BASE_URL or http://127.0.0.1:11434. Throws on a bad spec or option.
 *
 * @example
 * const judge = createChatModel("ollama:qwen2.5:7b-instruct", { timeoutMs: 30_000 });
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

/** The same judge with every call's options changed by `change` (and its parameters merged in). */
function withCallOptions(
  judge: JudgeModel,
  change: (options: ModelCallOptions) => ModelCallOptions,
  parameters: Record<string, unknown> = {},
): JudgeModel {
  const candidates = judge.candidates.map(
    (candidate): ModelCandidate => ({
      ...candidate,
      parameters: { ...candidate.parameters, ...parameters },
      call: (messages, options = {}) => candidate.call(messages, change(options)),
    }),
  );
  return { ...judge, candidates };
}

/** The same judge with `timeoutMs` for every call that gives none. */
export function withTimeout(judge: JudgeModel, timeoutMs: number): JudgeModel {
  if (judge.timeoutMs === timeoutMs) return judge;
  const timed = withCallOptions(
    judge,
    (options) => ({ ...options, timeoutMs: options.timeoutMs ?? timeoutMs }),
    { timeoutMs },
  );
  return { ...timed, timeoutMs, settings: { ...judge.settings, timeoutMs } };
}

/** The same judge with its calls queued in `lane` (a call's own lane wins), so evaluations take turns. */
export function withLane(judge: JudgeModel, lane: CallLane = createCallLane()): JudgeModel {
  return withCallOptions(judge, (options) => ({ ...options, lane: options.lane ?? lane }));
}

/** The same judge with every call also cancelled by `signal` (a command's Ctrl-C). */
export function withSignal(judge: JudgeModel, signal: AbortSignal): JudgeModel {
  return withCallOptions(judge, (options) => ({
    ...options,
    signal: options.signal === undefined ? signal : AbortSignal.any([options.signal, signal]),
  }));
}
