/**
 * Ollama's `num_ctx` sized from the prompt: Ollama cuts a prompt too long for its small default
 * window from the front without an error. The window is the smallest power of two holding prompt
 * and answer (at least MIN_CONTEXT_TOKENS, so one evaluation's calls share a size and the model is
 * not reloaded); a prompt that fits none is refused before it is sent.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { type ModelErrorContext, ModelRequestError } from "./errors.js";

export const MIN_CONTEXT_TOKENS = 8_192;
/** The largest window sized automatically (a 32k-token model); set numCtx to go beyond it. */
export const MAX_AUTO_CONTEXT_TOKENS = 32_768;
export const ANSWER_RESERVE_TOKENS = 1_024;
/** Characters per token assumed: fewer than most tokenizers give, so the estimate errs high. */
const CHARS_PER_TOKEN = 3;

/** A generous estimate of the prompt's tokens (characters ÷ 3, plus a little per message). */
export function estimatePromptTokens(messages: readonly BaseMessage[]): number {
  const chars = messages.reduce((sum, message) => sum + message.text.length, 0);
  return Math.ceil(chars / CHARS_PER_TOKEN) + 8 * messages.length;
}

/** The configured `num_ctx`, else one sized from the prompt; ModelRequestError when it cannot fit. */
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
