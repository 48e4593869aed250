/**
 * The `fetch` given to ChatOllama's ollama-js client. ChatOllama ignores `timeout`, `signal` and
 * `maxRetries`, and when its call signal fires mid-stream it stops reading and returns the partial
 * (or empty) text without an error. So the deadline and the caller's cancellation are applied
 * here, at the HTTP layer, and every failure leaves as a typed error:
 *
 * - the request is aborted by `AbortSignal.timeout(timeoutMs)`, the caller's signal, or the
 *   client's own signal, whichever fires first (AbortSignal.any);
 * - a fetch rejection becomes ModelTimeoutError / ModelAbortedError / ModelUnavailableError;
 * - an HTTP error status becomes the typed error for it, with Retry-After read from the headers
 *   (ollama-js would otherwise drop the headers and keep only the status);
 * - the response body is re-wrapped so that an abort or a dropped connection while ollama-js
 *   reads the NDJSON stream rejects its read with the typed error, which ChatOllama propagates.
 */

import { classifyModelError, errorFromStatus, parseRetryAfter } from "./classifyError.js";
import {
  ModelAbortedError,
  type ModelCallError,
  type ModelErrorContext,
  ModelTimeoutError,
} from "./errors.js";
import { quoteBody } from "./redact.js";

export interface OllamaFetchOptions {
  baseUrl: string;
  /** Deadline for the whole request, body included. */
  timeoutMs: number;
  /** The caller's cancellation. */
  signal?: AbortSignal;
  /** The fetch to wrap (default: global fetch). */
  fetch?: typeof fetch;
}

function modelFromBody(body: unknown): string | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && "model" in parsed) {
      return typeof parsed.model === "string" ? parsed.model : undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

async function errorDetail(response: Response): Promise<string> {
  const fallback = `HTTP ${response.status} ${response.statusText}`.trim();
  let text: string;
  try {
    text = await response.text();
  } catch {
    return fallback;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && "error" in parsed) {
      const error = typeof parsed.error === "string" ? parsed.error : JSON.stringify(parsed.error);
      return quoteBody(error ?? "");
    }
  } catch {
    // not JSON: use the text as is
  }
  return text.trim() === "" ? fallback : quoteBody(text.trim());
}

/** Re-emits `body`, turning a read failure into `convert(error)`. */
function guardBody(
  body: ReadableStream<Uint8Array>,
  convert: (error: unknown) => ModelCallError,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(convert(error));
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** A fetch for ChatOllama / ollama-js with a deadline, cancellation and typed errors. */
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

    let response: Response;
    try {
      response = await baseFetch(input, { ...init, signal: AbortSignal.any(signals) });
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
    if (!response.body) return response;
    return new Response(guardBody(response.body, convert), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
