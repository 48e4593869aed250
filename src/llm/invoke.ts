/**
 * invokeJudge: one model call with retries and fallbacks, giving the engine the text, usage,
 * answering model, parameters and latency. Transient failures are retried with exponential backoff
 * (a 429's Retry-After honoured, capped), an empty answer once; never a non-transient failure or a
 * cancelled call. A model that still fails gives way to the next one.
 */
import { setTimeout as delay } from "node:timers/promises";
import {
  AIMessage,
  type BaseMessage,
  type BaseMessageLike,
  coerceMessageLikeToMessage,
} from "@langchain/core/messages";
import type { TokenUsage } from "../scoring/result.js";
import { isRecord } from "../untrusted/json.js";
import type { JudgeModel, RetryPolicy } from "./chatModel.js";
import { classifyModelError } from "./classifyError.js";
import {
  isModelAbortedError,
  isModelRateLimitError,
  isModelResponseError,
  ModelAbortedError,
  type ModelCallError,
  ModelContentPolicyError,
  type ModelErrorContext,
  ModelResponseError,
} from "./errors.js";
import type { ModelCallOptions, ModelCandidate, ServerReport } from "./modelCandidate.js";
import { type TokenLogprob, tokenLogprobsOf } from "./tokenLogprobs.js";

export interface ModelAnswer {
  text: string;
  usage: TokenUsage;
  model: string;
  provider: string;
  spec: string;
  parameters: Record<string, unknown>;
  latencyMs: number;
  attempts: ModelAttempt[];
  logprobs?: TokenLogprob[];
}

function usageOf(message: BaseMessage): TokenUsage {
  const usage = AIMessage.isInstance(message) ? message.usage_metadata : undefined;
  const inputTokens = usage?.input_tokens ?? 0;
  const outputTokens = usage?.output_tokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage?.total_tokens ?? inputTokens + outputTokens,
  };
}

function reportedModel(message: BaseMessage): string | undefined {
  const { model_name, model }: Record<string, unknown> = message.response_metadata ?? {};
  return [model_name, model].find(
    (name): name is string => typeof name === "string" && name !== "",
  );
}

/** Rejects with the last failure when every model failed, ModelAbortedError when cancelled. */
export async function invokeJudge(
  judge: JudgeModel,
  messages: readonly BaseMessageLike[],
  options: ModelCallOptions = {},
): Promise<ModelAnswer> {
  const started = performance.now();
  const input = messages.map((message) => coerceMessageLikeToMessage(message));
  let served: ServerReport | undefined;
  const calling: ModelCallOptions = {
    ...options,
    onServer: (report) => {
      served = report;
      options.onServer?.(report);
    },
  };
  const attempts: ModelAttempt[] = [];
  let answered: { message: BaseMessage; candidate: ModelCandidate } | undefined;
  let lastError: ModelCallError | undefined;
  for (const candidate of judge.candidates) {
    try {
      const message = await callWithRetries(candidate, input, judge.retry, attempts, calling);
      answered = { message, candidate };
      break;
    } catch (error) {
      if (isModelAbortedError(error)) throw error;
      lastError = error as ModelCallError;
    }
  }
  if (answered === undefined) {
    throw lastError ?? new RangeError("invokeJudge: the model list is empty");
  }
  const { message, candidate } = answered;
  // Only the answering candidate's report counts (an earlier one's may have answered unusably).
  if (served?.spec !== candidate.spec) served = undefined;
  const logprobs = options.logprobs === undefined ? undefined : tokenLogprobsOf(message);
  return {
    // Content blocks other than text are ignored.
    text: message.text,
    usage: usageOf(message),
    model: reportedModel(message) ?? candidate.model,
    provider: candidate.provider,
    spec: candidate.spec,
    parameters: {
      ...candidate.parameters,
      ...(options.format === undefined ? {} : { format: options.format }),
      ...(options.logprobs === undefined ? {} : { topLogprobs: options.logprobs }),
      maxRetries: judge.retry.maxRetries,
      // A pool's call: the server that answered, and those the call was moved away from.
      ...(served === undefined ? {} : { baseUrl: served.server }),
      ...(served === undefined || served.failedOver.length === 0
        ? {}
        : { failedOver: served.failedOver }),
    },
    latencyMs: Math.round(performance.now() - started),
    attempts,
    ...(logprobs === undefined ? {} : { logprobs }),
  };
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

/** A successful answer that is not usable: empty, or stopped by a content filter. */
function unusableAnswer(message: BaseMessage, context: ModelErrorContext): ModelCallError | null {
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

async function callWithRetries(
  candidate: ModelCandidate,
  messages: BaseMessage[],
  policy: RetryPolicy,
  attempts: ModelAttempt[],
  options: ModelCallOptions = {},
): Promise<BaseMessage> {
  const { signal } = options;
  const { provider, model, baseUrl } = candidate;
  const context = { provider, model, baseUrl };
  let retries = 0;
  let emptyRetries = 0;
  while (true) {
    let error: ModelCallError;
    try {
      const message = await candidate.call(messages, options);
      const unusable = unusableAnswer(message, context);
      if (unusable === null) {
        attempts.push({ spec: candidate.spec });
        return message;
      }
      error = unusable;
    } catch (thrown) {
      error = classifyModelError(thrown, context);
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
    await delay(retryDelayMs(policy, retries, error), undefined, { signal }).catch(() => {
      throw new ModelAbortedError({}, signal?.reason);
    });
  }
}
