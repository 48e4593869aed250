/**
 * Whatever a chat-model call threw, typed (`transient` drives the retries and fallbacks), and a
 * LangChain chat model invoked with a deadline and cancellation, its failures typed.
 */
import type {
  BaseChatModel,
  BaseChatModelCallOptions,
} from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { isEvalgateError } from "../errors.js";
import { boundedText } from "../redact.js";
import { isRecord } from "../untrusted/json.js";
import {
  isModelCallError,
  ModelAbortedError,
  type ModelCallError,
  ModelContentPolicyError,
  type ModelErrorContext,
  ModelRateLimitError,
  ModelRequestError,
  ModelTimeoutError,
  ModelUnavailableError,
  type UnavailableReason,
} from "./errors.js";
import type { OllamaFormat } from "./settings.js";

const CONTENT_POLICY_PATTERN =
  /content[\s_-]?(policy|filter|management)|safety (system|settings|filter)|responsible ai policy|blocked due to safety/i;
const RATE_LIMIT_PATTERN = /rate[\s_-]?limit|too many requests/i;
const MODEL_NOT_FOUND_PATTERN = /model\b.*\b(not found|does not exist|not exist)|try pulling it/i;
const INCOMPLETE_STREAM_PATTERN = /did not receive done or success response/i;

/** Network error codes (of the error or its causes) and what they say about the server. */
const NETWORK_REASONS = new Map<string, UnavailableReason>(
  (
    [
      ["connection-refused", "ECONNREFUSED"],
      ["connection-reset", "ECONNRESET EPIPE UND_ERR_SOCKET UND_ERR_CLOSED ECONNABORTED"],
      [
        "unreachable",
        "ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH ETIMEDOUT UND_ERR_CONNECT_TIMEOUT",
      ],
    ] as const
  ).flatMap(([reason, codes]) => codes.split(" ").map((code) => [code, reason] as const)),
);

/** LangChain appends a link to its own docs to a provider's error: not ours to show. */
const LANGCHAIN_LINK = "\n\nTroubleshooting URL: https://docs.langchain.com/";

export function messageOf(error: unknown): string {
  const message =
    error instanceof Error
      ? error.message
      : typeof error === "string"
        ? error
        : isRecord(error) && typeof error.message === "string"
          ? error.message
          : String(error);
  const link = message.lastIndexOf(LANGCHAIN_LINK);
  return link === -1 ? message : message.slice(0, link);
}

/** The `code` of the error or of one of its causes (undici puts the socket error in `cause`). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && isRecord(current); depth += 1) {
    // An evalgate error's code names the error, not the socket: look further down its causes.
    if (typeof current.code === "string" && !isEvalgateError(current)) return current.code;
    current = current.cause;
  }
  return undefined;
}

/** HTTP status carried by SDK errors: `status` (OpenAI, Anthropic), `status_code` (ollama-js)… */
function statusOf(error: unknown): number | undefined {
  if (!isRecord(error)) return undefined;
  for (const key of ["status", "status_code", "statusCode"]) {
    const value = error[key];
    if (typeof value === "number" && value >= 100 && value <= 599) return value;
  }
  if (isRecord(error.response)) return statusOf(error.response);
  return undefined;
}

function headerOf(error: unknown, name: string): string | undefined {
  if (!isRecord(error)) return undefined;
  const headers = error.headers ?? (isRecord(error.response) ? error.response.headers : undefined);
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  if (isRecord(headers)) {
    const value = headers[name] ?? headers[name.toLowerCase()];
    return typeof value === "string" ? value : undefined;
  }
  return undefined;
}

/** Milliseconds from `Retry-After` (seconds or an HTTP date) or `retry-after-ms`. */
export function parseRetryAfter(
  retryAfter: string | null | undefined,
  retryAfterMs?: string | null,
  now: number = Date.now(),
): number | undefined {
  if (retryAfterMs) {
    const ms = Number(retryAfterMs);
    if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  }
  if (!retryAfter) return undefined;
  const trimmed = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export function errorFromStatus(
  status: number,
  body: string,
  context: ModelErrorContext,
  retryAfterMs?: number,
  cause?: unknown,
): ModelCallError {
  // A server may answer an error with a whole page: only its start is quoted.
  const detail = boundedText(body);
  if (status === 429) return new ModelRateLimitError(retryAfterMs, detail, context, cause);
  if (status >= 500) {
    return new ModelUnavailableError("server-error", detail, context, { status, cause });
  }
  if (status === 404 && MODEL_NOT_FOUND_PATTERN.test(detail)) {
    return new ModelUnavailableError("model-not-found", detail, context, { status, cause });
  }
  if (CONTENT_POLICY_PATTERN.test(detail))
    return new ModelContentPolicyError(detail, context, cause);
  return new ModelRequestError(status, detail, context, cause);
}

function isAbortLike(error: unknown, name: "TimeoutError" | "AbortError"): boolean {
  return isRecord(error) && error.name === name;
}

export function classifyModelError(
  error: unknown,
  context: ModelErrorContext = {},
): ModelCallError {
  if (isModelCallError(error)) return error;
  const detail = messageOf(error);

  if (isAbortLike(error, "TimeoutError")) {
    return new ModelTimeoutError(context.timeoutMs ?? 0, context, error);
  }
  if (isAbortLike(error, "AbortError") || (isRecord(error) && error.name === "ModelAbortError")) {
    return new ModelAbortedError(context, error);
  }

  const status = statusOf(error);
  if (status !== undefined && status >= 400) {
    const retryAfterMs = parseRetryAfter(
      headerOf(error, "retry-after"),
      headerOf(error, "retry-after-ms"),
    );
    return errorFromStatus(status, detail, context, retryAfterMs, error);
  }

  const code = networkCode(error);
  const reason = code === undefined ? undefined : NETWORK_REASONS.get(code);
  if (reason !== undefined)
    return new ModelUnavailableError(reason, detail, context, { cause: error });
  if (error instanceof TypeError && (detail === "fetch failed" || detail === "terminated")) {
    return new ModelUnavailableError("connection-reset", detail, context, { cause: error });
  }
  if (INCOMPLETE_STREAM_PATTERN.test(detail)) {
    return new ModelUnavailableError("incomplete-response", detail, context, { cause: error });
  }
  if (CONTENT_POLICY_PATTERN.test(detail))
    return new ModelContentPolicyError(detail, context, error);
  if (RATE_LIMIT_PATTERN.test(detail))
    return new ModelRateLimitError(undefined, detail, context, error);
  if (MODEL_NOT_FOUND_PATTERN.test(detail)) {
    return new ModelUnavailableError("model-not-found", detail, context, { cause: error });
  }
  // A programming error (bad argument, unsupported message type) will fail the same way again.
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) {
    return new ModelRequestError(undefined, detail, context, error);
  }
  return new ModelUnavailableError("unknown", detail, context, { cause: error });
}

/** Rejects as soon as `signal` fires, abandoning (but not leaking a rejection of) `pending`. */
function raceAbort<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  pending.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Options bound for one call: Ollama's `format`, a server's `seed`, the embedded `logprobs`. */
export type ChatCallOptions = Partial<BaseChatModelCallOptions> & {
  format?: OllamaFormat;
  seed?: number;
  logprobs?: number;
};

/** The signal is forwarded unless `forwardSignal` is false; the call is raced against it. */
export async function invokeWithDeadline(
  chat: BaseChatModel,
  messages: BaseMessage[],
  options: {
    timeoutMs: number;
    signal: AbortSignal | undefined;
    forwardSignal: boolean;
    bound: ChatCallOptions;
    context: ModelErrorContext;
  },
): Promise<BaseMessage> {
  const { context, signal, timeoutMs } = options;
  if (signal?.aborted) throw new ModelAbortedError(context, signal.reason);
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const runnable = Object.keys(options.bound).length > 0 ? chat.withConfig(options.bound) : chat;
  try {
    const pending = runnable.invoke(messages, options.forwardSignal ? { signal: combined } : {});
    return await raceAbort(pending, combined);
  } catch (error) {
    if (signal?.aborted) throw new ModelAbortedError(context, signal.reason);
    if (timeout.aborted) throw new ModelTimeoutError(timeoutMs, context, error);
    throw classifyModelError(error, context);
  }
}
