/**
 * ChatOllama built per call with the deadline fetch (ollamaFetch.ts): cheap, and one call's
 * cancellation stays away from the others (ChatOllama aborts every stream of its client).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { ChatOllama } from "@langchain/ollama";
import { classifyModelError } from "./classifyError.js";
import { contextWindowFor } from "./contextWindow.js";
import { ModelAbortedError, type ModelErrorContext } from "./errors.js";
import type { ModelCallOptions } from "./modelCandidate.js";
import { createOllamaFetch } from "./ollamaFetch.js";
import type { ModelSettings } from "./settings.js";
import { TOKEN_LOGPROBS_KEY, TokenLogprobRecorder } from "./tokenLogprobs.js";

export function createOllamaChat(
  model: string,
  settings: ModelSettings,
  signal?: AbortSignal,
  logprobs?: { top: number; recorder: TokenLogprobRecorder },
): ChatOllama {
  return new ChatOllama({
    model,
    baseUrl: settings.baseUrl,
    temperature: settings.temperature,
    seed: settings.seed,
    numCtx: settings.numCtx,
    keepAlive: settings.keepAlive,
    format: settings.format,
    fetch: createOllamaFetch({
      baseUrl: settings.shownBaseUrl,
      timeoutMs: settings.timeoutMs,
      signal,
      ...(settings.authorization === undefined ? {} : { authorization: settings.authorization }),
      ...(logprobs === undefined ? {} : { logprobs }),
    }),
  });
}

/** One call's settings: its deadline, format and a context window its prompt fits. */
export function ollamaCallSettings(
  settings: ModelSettings,
  messages: readonly BaseMessage[],
  options: ModelCallOptions,
  context: ModelErrorContext & { timeoutMs: number },
): ModelSettings {
  return {
    ...settings,
    timeoutMs: context.timeoutMs,
    numCtx: contextWindowFor(messages, settings.numCtx, context),
    ...(options.format === undefined ? {} : { format: options.format }),
  };
}

/**
 * One Ollama call, its failure typed. No signal goes in the call options (ChatOllama would answer
 * partial text); the fetch carries it. Log-probabilities go under TOKEN_LOGPROBS_KEY.
 */
export async function invokeOllamaChat(
  model: string,
  settings: ModelSettings,
  messages: BaseMessage[],
  options: ModelCallOptions,
  context: ModelErrorContext,
): Promise<BaseMessage> {
  const { signal, logprobs: top } = options;
  const recorder = top === undefined ? undefined : new TokenLogprobRecorder();
  try {
    const logprobs = recorder === undefined || top === undefined ? undefined : { top, recorder };
    const message = await createOllamaChat(model, settings, signal, logprobs).invoke(messages);
    const tokens = recorder?.tokens();
    if (tokens !== undefined) {
      message.response_metadata = { ...message.response_metadata, [TOKEN_LOGPROBS_KEY]: tokens };
    }
    return message;
  } catch (error) {
    if (signal?.aborted) throw new ModelAbortedError(context, signal.reason);
    throw classifyModelError(error, context);
  }
}

export function ollamaParameters(model: string, settings: ModelSettings): Record<string, unknown> {
  const parameters: Record<string, unknown> = {
    provider: "ollama",
    model,
    baseUrl: settings.shownBaseUrl,
    temperature: settings.temperature,
    seed: settings.seed,
    numCtx: settings.numCtx,
    keepAlive: settings.keepAlive,
    format: settings.format,
    timeoutMs: settings.timeoutMs,
  };
  return Object.fromEntries(Object.entries(parameters).filter(([, value]) => value !== undefined));
}
