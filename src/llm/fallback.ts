/**
 * Falling back along a judge's model list (a points list may name several judge models): each model
 * is tried with its retries; when it still fails (or fails in a way retrying cannot fix, such as a
 * model that is not pulled) the next one is tried. Caller cancellation stops everything.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { ModelCallOptions, ModelCandidate } from "./candidate.js";
import { isModelAbortedError, type ModelCallError } from "./errors.js";
import { callWithRetries, type ModelAttempt, type RetryPolicy } from "./retry.js";

export interface FallbackAnswer {
  message: BaseMessage;
  /** The model that answered. */
  candidate: ModelCandidate;
  attempts: ModelAttempt[];
}

/** Tries the candidates in order; rejects with the last typed error when all fail. */
export async function callWithFallback(
  candidates: readonly ModelCandidate[],
  messages: BaseMessage[],
  policy: RetryPolicy,
  options: ModelCallOptions = {},
): Promise<FallbackAnswer> {
  const attempts: ModelAttempt[] = [];
  let lastError: ModelCallError | undefined;
  for (const candidate of candidates) {
    try {
      const message = await callWithRetries(candidate, messages, policy, attempts, options);
      return { message, candidate, attempts };
    } catch (error) {
      if (isModelAbortedError(error)) throw error;
      lastError = error as ModelCallError;
    }
  }
  if (lastError === undefined) throw new RangeError("callWithFallback: the model list is empty");
  throw lastError;
}
