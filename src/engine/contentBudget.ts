import { ContentTooLargeError } from "./errors.js";

/** Tokens assumed for the judge's context window when the model's num_ctx is not set. */
const ASSUMED_CONTEXT_TOKENS = 32_768;
/** Tokens kept for the prompt around the content (criterion, instructions) and the answer. */
const RESERVED_TOKENS = 4_096;
/** A conservative bytes-per-token ratio for prose (English and German average about 4). */
const BYTES_PER_TOKEN = 3;

/** The most content bytes that fit the context window beside the prompt and the answer. */
export function contentBudgetBytes(numCtx?: number): number {
  const tokens = numCtx ?? ASSUMED_CONTEXT_TOKENS;
  return Math.max(1_024, (tokens - RESERVED_TOKENS) * BYTES_PER_TOKEN);
}

export function formatBytes(n: number): string {
  return `${n.toLocaleString("en-US")} bytes`;
}

/** Refuses content text over the budget, before any model call. */
export function checkContentBudget(
  text: string,
  budgetBytes: number = contentBudgetBytes(),
  what = "the content",
): void {
  const size = Buffer.byteLength(text, "utf8");
  if (size > budgetBytes) throw new ContentTooLargeError(size, budgetBytes, what);
}
