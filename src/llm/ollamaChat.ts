/**
 * One Ollama server as a pool calls it: ChatOllama built per call with the deadline fetch
 * (ollamaFetch.ts): cheap, and one call's cancellation stays away from the others (ChatOllama
 * aborts every stream of its client).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { ChatOllama } from "@langchain/ollama";
import { classifyModelError } from "./classifyError.js";
import { ModelAbortedError, type ModelErrorContext, ModelRequestError } from "./errors.js";
import type { PoolMember } from "./modelCandidate.js";
import { createOllamaFetch } from "./ollamaFetch.js";
import type { ServerEntry } from "./serverList.js";
import type { ModelSettings } from "./settings.js";
import { TOKEN_LOGPROBS_KEY, TokenLogprobRecorder } from "./tokenLogprobs.js";

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

/** The configured `num_ctx`, else one sized from the prompt; ModelRequestError when it cannot fit. */
export function contextWindowFor(
  messages: readonly BaseMessage[],
  configured: number | undefined,
  context: ModelErrorContext,
): number {
  // A generous estimate of the prompt's tokens (characters ÷ 3, plus a little per message).
  const chars = messages.reduce((sum, message) => sum + message.text.length, 0);
  const prompt = Math.ceil(chars / CHARS_PER_TOKEN) + 8 * messages.length;
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

/**
 * One Ollama call, its failure typed. No signal goes in the call options (ChatOllama would answer
 * partial text); the fetch carries it. Log-probabilities go under TOKEN_LOGPROBS_KEY.
 */
export function ollamaMember(
  entry: ServerEntry,
  model: string,
  settings: ModelSettings,
): PoolMember {
  const { address } = entry;
  return {
    provider: "ollama",
    model,
    key: address.key,
    shown: address.shown,
    slots: () => Promise.resolve(entry.slots ?? settings.maxInFlight),
    async invoke(messages, options) {
      const { signal, logprobs: top } = options;
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const context = { provider: "ollama", model, baseUrl: address.shown, timeoutMs };
      const numCtx = contextWindowFor(messages, settings.numCtx, context);
      const recorder = top === undefined ? undefined : new TokenLogprobRecorder();
      const { authorization } = address;
      try {
        const chat = new ChatOllama({
          model,
          baseUrl: address.url,
          temperature: settings.temperature,
          seed: settings.seed,
          numCtx,
          keepAlive: settings.keepAlive,
          format: options.format ?? settings.format,
          fetch: createOllamaFetch({
            baseUrl: address.shown,
            timeoutMs,
            signal,
            ...(authorization === undefined ? {} : { authorization }),
            ...(recorder === undefined || top === undefined ? {} : { logprobs: { top, recorder } }),
          }),
        });
        const message = await chat.invoke(messages);
        const tokens = recorder?.tokens();
        if (tokens !== undefined) {
          message.response_metadata = {
            ...message.response_metadata,
            [TOKEN_LOGPROBS_KEY]: tokens,
          };
        }
        return message;
      } catch (error) {
        if (signal?.aborted) throw new ModelAbortedError(context, signal.reason);
        throw classifyModelError(error, context);
      }
    },
  };
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
