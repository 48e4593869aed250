/**
 * Retrying one model: transient failures with exponential backoff (a 429's Retry-After honoured,
 * capped), an empty answer once; never a non-transient failure or a cancelled call.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { BaseMessage } from "@langchain/core/messages";
import { classifyModelError, isRecord } from "./classifyError.js";
import {
  isModelAbortedError,
  isModelRateLimitError,
  isModelResponseError,
  ModelAbortedError,
  type ModelCallError,
  ModelContentPolicyError,
  ModelResponseError,
} from "./errors.js";
import type { ModelCallOptions, ModelCandidate } from "./modelCandidate.js";

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
}

export interface ModelAttempt {
  spec: string;
  error?: ModelCallError;
}

export function retryDelayMs(policy: RetryPolicy, retry: number, error: ModelCallError): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  if (isModelRateLimitError(error) && error.retryAfterMs !== undefined) {
    return Math.max(exponential, Math.min(error.retryAfterMs, policy.maxRetryAfterMs));
  }
  return exponential;
}

export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, signal === undefined ? {} : { signal });
  } catch {
    throw new ModelAbortedError({}, signal?.reason);
  }
}

/** A successful answer that is not usable: empty, or stopped by a content filter. */
function unusableAnswer(message: BaseMessage, candidate: ModelCandidate): ModelCallError | null {
  const context = {
    provider: candidate.provider,
    model: candidate.model,
    baseUrl: candidate.baseUrl,
  };
  const metadata: unknown = message.response_metadata;
  const finish = isRecord(metadata) ? (metadata.finish_reason ?? metadata.done_reason) : undefined;
  if (finish === "content_filter") {
    return new ModelContentPolicyError("the answer was stopped by a content filter", context);
  }
  if (message.text.trim() === "") {
    return new ModelResponseError("the answer is empty", context);
  }
  return null;
}

export async function callWithRetries(
  candidate: ModelCandidate,
  messages: BaseMessage[],
  policy: RetryPolicy,
  attempts: ModelAttempt[],
  options: ModelCallOptions = {},
): Promise<BaseMessage> {
  const { signal } = options;
  let retries = 0;
  let emptyRetries = 0;
  while (true) {
    let error: ModelCallError;
    try {
      const message = await candidate.call(messages, options);
      const unusable = unusableAnswer(message, candidate);
      if (unusable === null) {
        attempts.push({ spec: candidate.spec });
        return message;
      }
      error = unusable;
    } catch (thrown) {
      error = classifyModelError(thrown, {
        provider: candidate.provider,
        model: candidate.model,
        baseUrl: candidate.baseUrl,
      });
    }
    attempts.push({ spec: candidate.spec, error });
    if (signal?.aborted) {
      throw isModelAbortedError(error) ? error : new ModelAbortedError({}, signal.reason);
    }
    if (!error.transient || retries >= policy.maxRetries) throw error;
    if (isModelResponseError(error)) {
      if (emptyRetries >= 1) throw error;
      emptyRetries += 1;
    }
    retries += 1;
    await sleep(retryDelayMs(policy, retries, error), signal);
  }
}
