/**
 * The content budget: the most content bytes sent whole in every judge call, so that the content,
 * the prompt around it and the answer fit the judge model's context window. Content over the
 * budget is refused before any model call, naming both sizes.
 */
import { ContentTooLargeError } from "./errors.js";

/** Tokens assumed for the judge's context window when the model's num_ctx is not set. */
export const ASSUMED_CONTEXT_TOKENS = 32_768;
/** Tokens kept for the prompt around the content (criterion, instructions) and the answer. */
const RESERVED_TOKENS = 4_096;
/** A conservative bytes-per-token ratio for prose (English and German average about 4). */
const BYTES_PER_TOKEN = 3;

/**
 * The most content bytes sent whole in every judge call: what fits the model's context window
 * (`numCtx` tokens, else ASSUMED_CONTEXT_TOKENS) beside the prompt and the answer.
 */
export function contentBudgetBytes(numCtx?: number): number {
  const tokens = numCtx ?? ASSUMED_CONTEXT_TOKENS;
  return Math.max(1_024, (tokens - RESERVED_TOKENS) * BYTES_PER_TOKEN);
}

/** A byte count as people read it: "86,016 bytes". */
export function formatBytes(n: number): string {
  return `${n.toLocaleString("en-US")} bytes`;
}

/**
 * Refuses content text (structured content as the JSON text the judge is sent) that is over the
 * budget (default: contentBudgetBytes()).
 */
export function checkContentBudget(
  text: string,
  budgetBytes: number = contentBudgetBytes(),
  what = "the content",
): void {
  const size = Buffer.byteLength(text, "utf8");
  if (size > budgetBytes) throw new ContentTooLargeError(size, budgetBytes, what);
}
