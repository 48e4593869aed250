/**
 * Ollama's context window (`num_ctx`) sized from the prompt. Ollama's default window is small and
 * it cuts a longer prompt from the front without an error, so a judge would silently lose the
 * start of the content. Each call's window is the smallest power of two that holds the prompt and
 * an answer (at least MIN_CONTEXT_TOKENS, so calls of one evaluation share a size and the loaded
 * model is not reloaded); a prompt that would not fit is refused before it is sent, naming the sizes.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { type ModelErrorContext, ModelRequestError } from "./errors.js";

/** The smallest window asked for. */
export const MIN_CONTEXT_TOKENS = 8_192;
/** The largest window sized automatically (a 32k-token model); set numCtx to go beyond it. */
export const MAX_AUTO_CONTEXT_TOKENS = 32_768;
/** Room kept for the answer. */
export const ANSWER_RESERVE_TOKENS = 1_024;
/** Characters per token assumed: fewer than most tokenizers give, so the estimate errs high. */
const CHARS_PER_TOKEN = 3;

/** A generous estimate of the prompt's tokens (characters ÷ 3, plus a little per message). */
export function estimatePromptTokens(messages: readonly BaseMessage[]): number {
  const chars = messages.reduce((sum, message) => sum + message.text.length, 0);
  return Math.ceil(chars / CHARS_PER_TOKEN) + 8 * messages.length;
}

/**
 * The `num_ctx` for a call: the configured one when set, else sized from the prompt. Throws a
 * ModelRequestError (not retried) when the prompt and the answer reserve do not fit.
 */
export function contextWindowFor(
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
