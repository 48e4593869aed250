/**
 * One model of a judge's list (the primary or a fallback): how to make one call to it, with the
 * deadline and the caller's cancellation applied, failing with a typed ModelCallError.
 */
import type {
  BaseChatModel,
  BaseChatModelCallOptions,
} from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { classifyModelError } from "./classifyError.js";
import { contextWindowFor } from "./contextWindow.js";
import { createLlamaCppChat } from "./embedded/llamaCppChat.js";
import {
  ModelAbortedError,
  type ModelErrorContext,
  ModelRequestError,
  ModelTimeoutError,
} from "./errors.js";
import { createOllamaChat, ollamaParameters } from "./ollamaChat.js";
import { loadProviderChatModel } from "./providers.js";
import type { ModelSettings, OllamaFormat } from "./settings.js";
import type { ModelSpec } from "./spec.js";

export interface ModelCallOptions {
  /** The caller's cancellation; the call then fails with ModelAbortedError. */
  signal?: AbortSignal;
  /**
   * Structured output for this call (Ollama's `format`: "json" or a JSON Schema), in place of the
   * model's own setting. Providers without such an option ignore it (the prompt still asks).
   */
  format?: OllamaFormat;
  /** The deadline of this call, in place of the model's own (the caller's timeout). */
  timeoutMs?: number;
}

export interface ModelCandidate {
  /** `provider:model` (for a supplied chat model: its LLM type and model name). */
  readonly spec: string;
  readonly provider: string;
  readonly model: string;
  /** The server, where the provider has one we configure (Ollama). */
  readonly baseUrl: string | undefined;
  /** What the call is made with (temperature, seed, format, timeout…), for traces. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** One call, no retry. Rejects with a ModelCallError. */
  call(messages: BaseMessage[], options?: ModelCallOptions): Promise<BaseMessage>;
}

function contextOf(candidate: {
  provider: string;
  model: string;
  baseUrl?: string;
  timeoutMs: number;
}): ModelErrorContext {
  return {
    provider: candidate.provider,
    model: candidate.model,
    baseUrl: candidate.baseUrl,
    timeoutMs: candidate.timeoutMs,
  };
}

/** Rejects as soon as `signal` fires, abandoning (but not leaking a rejection of) `pending`. */
function raceAbort<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  pending.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

type ChatCallOptions = Partial<BaseChatModelCallOptions> & { format?: OllamaFormat };

/**
 * Invokes a LangChain chat model with a deadline. The signal is forwarded to the model (so SDKs
 * can cancel their request) unless `forwardSignal` is false, and the call is raced against it.
 */
async function invokeWithDeadline(
  chat: BaseChatModel,
  messages: BaseMessage[],
  options: {
    timeoutMs: number;
    signal: AbortSignal | undefined;
    forwardSignal: boolean;
    bound: ChatCallOptions;
    context: ModelErrorContext;
  },
): Promise<BaseMessage> {
  const { context, signal, timeoutMs } = options;
  if (signal?.aborted) throw new ModelAbortedError(context, signal.reason);
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const runnable = Object.keys(options.bound).length > 0 ? chat.withConfig(options.bound) : chat;
  try {
    const pending = runnable.invoke(messages, options.forwardSignal ? { signal: combined } : {});
    return await raceAbort(pending, combined);
  } catch (error) {
    if (signal?.aborted) throw new ModelAbortedError(context, signal.reason);
    if (timeout.aborted) throw new ModelTimeoutError(timeoutMs, context, error);
    throw classifyModelError(error, context);
  }
}

/** An Ollama model, called through ChatOllama with the deadline fetch. */
export function ollamaCandidate(spec: ModelSpec, settings: ModelSettings): ModelCandidate {
  const context = contextOf({
    provider: "ollama",
    model: spec.model,
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
  });
  return {
    spec: `ollama:${spec.model}`,
    provider: "ollama",
    model: spec.model,
    baseUrl: settings.baseUrl,
    parameters: ollamaParameters(spec.model, settings),
    async call(messages, options = {}) {
      const { signal } = options;
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const callContext = { ...context, timeoutMs };
      if (signal?.aborted) throw new ModelAbortedError(callContext, signal.reason);
      try {
        // No signal in the call options: ChatOllama would answer partial text on abort. The
        // fetch carries the caller's signal and the deadline instead.
        const callSettings = {
          ...settings,
          timeoutMs,
          numCtx: contextWindowFor(messages, settings.numCtx, callContext),
          ...(options.format === undefined ? {} : { format: options.format }),
        };
        return await createOllamaChat(spec.model, callSettings, signal).invoke(messages);
      } catch (error) {
        if (signal?.aborted) throw new ModelAbortedError(callContext, signal.reason);
        throw classifyModelError(error, callContext);
      }
    },
  };
}

/**
 * A local GGUF file on the embedded runtime (`llama-cpp:<file.gguf>`), loaded on first call; the
 * call's `format` becomes its grammar. A runtime or file that cannot load is not retried.
 */
export function llamaCppCandidate(spec: ModelSpec, settings: ModelSettings): ModelCandidate {
  const context = contextOf({
    provider: "llama-cpp",
    model: spec.model,
    timeoutMs: settings.timeoutMs,
  });
  let loading: Promise<BaseChatModel> | undefined;
  return {
    spec: `llama-cpp:${spec.model}`,
    provider: "llama-cpp",
    model: spec.model,
    baseUrl: undefined,
    parameters: {
      provider: "llama-cpp",
      model: spec.model,
      temperature: settings.temperature,
      seed: settings.seed,
      timeoutMs: settings.timeoutMs,
    },
    async call(messages, options = {}) {
      loading ??= createLlamaCppChat(spec.model, settings);
      let chat: BaseChatModel;
      try {
        chat = await loading;
      } catch (error) {
        loading = undefined;
        const detail = error instanceof Error ? error.message : String(error);
        throw new ModelRequestError(undefined, detail, context, error);
      }
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      return invokeWithDeadline(chat, messages, {
        timeoutMs,
        signal: options.signal,
        forwardSignal: true,
        bound: options.format === undefined ? {} : { format: options.format },
        context: { ...context, timeoutMs },
      });
    },
  };
}

/** A model of another provider, its package imported on first use. */
export function providerCandidate(spec: ModelSpec, settings: ModelSettings): ModelCandidate {
  if (spec.provider === "ollama") return ollamaCandidate(spec, settings);
  if (spec.provider === "llama-cpp") return llamaCppCandidate(spec, settings);
  const providerSpec = { provider: spec.provider, model: spec.model };
  const context = contextOf({ ...providerSpec, timeoutMs: settings.timeoutMs });
  let loading: Promise<BaseChatModel> | undefined;
  return {
    spec: `${spec.provider}:${spec.model}`,
    provider: spec.provider,
    model: spec.model,
    baseUrl: undefined,
    parameters: {
      provider: spec.provider,
      model: spec.model,
      temperature: settings.temperature,
      timeoutMs: settings.timeoutMs,
    },
    async call(messages, options = {}) {
      loading ??= loadProviderChatModel(providerSpec, settings);
      let chat: BaseChatModel;
      try {
        chat = await loading;
      } catch (error) {
        loading = undefined;
        throw classifyModelError(error, context);
      }
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      return invokeWithDeadline(chat, messages, {
        timeoutMs,
        signal: options.signal,
        forwardSignal: true,
        bound: {},
        context: { ...context, timeoutMs },
      });
    },
  };
}

function stringField(value: object, key: string): string | undefined {
  const field: unknown = (value as Record<string, unknown>)[key];
  return typeof field === "string" && field !== "" ? field : undefined;
}

function invocationParameters(chat: BaseChatModel): Record<string, unknown> {
  try {
    const params: unknown = chat.invocationParams();
    return typeof params === "object" && params !== null ? { ...params } : {};
  } catch {
    return {};
  }
}

/**
 * A chat model the caller built, used as is. `format`, when set, is bound as a call option.
 * ChatOllama instances get no signal in their call options (see ollamaCandidate); the call is
 * still raced against the deadline and the caller's signal.
 */
export function suppliedCandidate(chat: BaseChatModel, settings: ModelSettings): ModelCandidate {
  const provider = chat._llmType();
  const model = stringField(chat, "model") ?? stringField(chat, "modelName") ?? provider;
  const baseUrl = stringField(chat, "baseUrl");
  const context = contextOf({ provider, model, baseUrl, timeoutMs: settings.timeoutMs });
  const bound: ChatCallOptions = settings.format === undefined ? {} : { format: settings.format };
  return {
    spec: `${provider}:${model}`,
    provider,
    model,
    baseUrl,
    parameters: {
      ...invocationParameters(chat),
      provider,
      model,
      ...bound,
      timeoutMs: settings.timeoutMs,
    },
    call(messages, options = {}) {
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      return invokeWithDeadline(chat, messages, {
        timeoutMs,
        signal: options.signal,
        forwardSignal: provider !== "ollama",
        bound: options.format === undefined ? bound : { ...bound, format: options.format },
        context: { ...context, timeoutMs },
      });
    },
  };
}
