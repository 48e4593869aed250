/**
 * ChatOllama built per call with the deadline fetch (ollamaFetch.ts): cheap, and one call's
 * cancellation stays away from the others (ChatOllama aborts every stream of its client).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { ChatOllama } from "@langchain/ollama";
import { classifyModelError } from "./classifyError.js";
import { ModelAbortedError, type ModelErrorContext, ModelRequestError } from "./errors.js";
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

/**
 * Ollama's `num_ctx` sized from the prompt: Ollama cuts a prompt too long for its small default
 * window from the front without an error. The window is the smallest power of two holding prompt
 * and answer (at least MIN_CONTEXT_TOKENS, so one evaluation's calls share a size and the model is
 * not reloaded); a prompt that fits none is refused before it is sent.
 */
const MIN_CONTEXT_TOKENS = 8_192;
/** The largest window sized automatically (a 32k-token model); set numCtx to go beyond it. */
const MAX_AUTO_CONTEXT_TOKENS = 32_768;
const ANSWER_RESERVE_TOKENS = 1_024;
/** Characters per token assumed: fewer than most tokenizers give, so the estimate errs high. */
const CHARS_PER_TOKEN = 3;

/** A generous estimate of the prompt's tokens (characters ÷ 3, plus a little per message). */
function estimatePromptTokens(messages: readonly BaseMessage[]): number {
  const chars = messages.reduce((sum, message) => sum + message.text.length, 0);
  return Math.ceil(chars / CHARS_PER_TOKEN) + 8 * messages.length;
}

/** The configured `num_ctx`, else one sized from the prompt; ModelRequestError when it cannot fit. */
function contextWindowFor(
  messages: readonly BaseMessage[],
  configured: number | undefined,
  context: ModelErrorContext,
): number {
  const prompt = estimatePromptTokens(messages);
  const needed = prompt + ANSWER_RESERVE_TOKENS;
  const limit = configured ?? MAX_AUTO_CONTEXT_TOKENS;
  if (needed > limit) {
    const where = configured === undefined ? "the largest automatic window" : "numCtx";
    throw new ModelRequestError(
      undefined,
      `not sent: the prompt needs about ${prompt} tokens plus ${ANSWER_RESERVE_TOKENS} for the answer, more than ${where} of ${limit} tokens; the server would cut it. Send less content or set numCtx higher`,
      context,
    );
  }
  if (configured !== undefined) return configured;
  let size = MIN_CONTEXT_TOKENS;
  while (size < needed) size *= 2;
  return size;
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
