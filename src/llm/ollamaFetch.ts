/**
 * The `fetch` given to ChatOllama's ollama-js client. ChatOllama ignores `timeout`, `signal` and
 * `maxRetries`, and an aborted stream returns partial text without an error; so the deadline and
 * cancellation are applied here and every failure leaves as a typed error. Error statuses keep
 * their Retry-After (ollama-js drops the headers); streamed lines are checked (responseBody.ts);
 * `logprobs` asks for the tokens' log-probabilities, which ChatOllama does not send.
 */

import { boundedText } from "../redact.js";
import { classifyModelError, errorFromStatus, parseRetryAfter } from "./classifyError.js";
import {
  ModelAbortedError,
  type ModelCallError,
  type ModelErrorContext,
  ModelTimeoutError,
} from "./errors.js";
import { checkedNdjson, readBoundedText } from "./responseBody.js";
import type { ServerAuthorization } from "./serverList.js";
import { type TokenLogprobRecorder, withLogprobsRequested } from "./tokenLogprobs.js";

export interface OllamaFetchOptions {
  baseUrl: string;
  /** The `Authorization` header for every request (basic credentials of the server URL). */
  authorization?: ServerAuthorization;
  timeoutMs: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Ask a chat request for `top` alternatives per token and record the answer's log-probabilities. */
  logprobs?: { top: number; recorder: TokenLogprobRecorder };
}

function modelFromBody(body: unknown): string | undefined {
  try {
    const model: unknown = typeof body === "string" ? JSON.parse(body)?.model : undefined;
    return typeof model === "string" ? model : undefined;
  } catch {
    return undefined;
  }
}

async function errorDetail(response: Response): Promise<string> {
  const fallback = `HTTP ${response.status} ${response.statusText}`.trim();
  const text = await readBoundedText(response);
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && "error" in parsed) {
      const error = typeof parsed.error === "string" ? parsed.error : JSON.stringify(parsed.error);
      return boundedText(error ?? "");
    }
  } catch {
    // not JSON (or cut short): quote the text
  }
  return text.trim() === "" ? fallback : boundedText(text.trim());
}

function withAuthorization(
  init: RequestInit | undefined,
  authorization: ServerAuthorization | undefined,
): RequestInit["headers"] {
  if (authorization === undefined) return init?.headers;
  const headers = new Headers(init?.headers);
  if (!headers.has("authorization")) headers.set("authorization", authorization.headerValue());
  return headers;
}

function isStreamRequest(body: unknown): boolean {
  return typeof body === "string" && /"stream"\s*:\s*true/.test(body);
}

function pathOf(input: Parameters<typeof fetch>[0]): string {
  const url = input instanceof Request ? input.url : String(input);
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

export function createOllamaFetch(options: OllamaFetchOptions): typeof fetch {
  const baseFetch = options.fetch ?? fetch;
  return async (input, init) => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signals = [timeout];
    if (options.signal) signals.push(options.signal);
    if (init?.signal) signals.push(init.signal);
    const context: ModelErrorContext = {
      provider: "ollama",
      model: modelFromBody(init?.body),
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
    };
    const convert = (error: unknown): ModelCallError => {
      if (options.signal?.aborted) return new ModelAbortedError(context, options.signal.reason);
      if (timeout.aborted) return new ModelTimeoutError(options.timeoutMs, context, error);
      return classifyModelError(error, context);
    };
    if (options.signal?.aborted) throw new ModelAbortedError(context, options.signal.reason);

    const chat = pathOf(input).endsWith("/api/chat");
    const { logprobs } = options;
    const body =
      chat && logprobs !== undefined ? withLogprobsRequested(init?.body, logprobs.top) : init?.body;
    let response: Response;
    try {
      response = await baseFetch(input, {
        ...init,
        body,
        headers: withAuthorization(init, options.authorization),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      throw convert(error);
    }
    if (!response.ok) {
      const detail = await errorDetail(response);
      const retryAfterMs = parseRetryAfter(
        response.headers.get("retry-after"),
        response.headers.get("retry-after-ms"),
      );
      throw errorFromStatus(response.status, detail, context, retryAfterMs);
    }
    if (!response.body || !isStreamRequest(init?.body)) return response;
    const onChunk =
      chat && logprobs !== undefined
        ? (chunk: Record<string, unknown>) => logprobs.recorder.add(chunk.logprobs)
        : undefined;
    const check = { context, convert, chat, ...(onChunk === undefined ? {} : { onChunk }) };
    return new Response(checkedNdjson(response.body, check), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
