/**
 * The `fetch` given to ChatOllama's ollama-js client. ChatOllama ignores `timeout`, `signal` and
 * `maxRetries`, and an aborted stream returns partial text without an error; so the deadline and
 * cancellation are applied here and every failure leaves as a typed error. Error statuses keep
 * their Retry-After (ollama-js drops the headers); an error body is read up to 64 KB; a streamed
 * answer is checked line by line, since ollama-js prints every unparseable line (and blank ones)
 * in full on stderr: a bad, too long or blank line never reaches it. `logprobs` asks for the
 * tokens' log-probabilities, which ChatOllama does not send.
 */
import { boundedText } from "../redact.js";
import { isRecord } from "../untrusted/json.js";
import { classifyModelError, errorFromStatus, parseRetryAfter } from "./classifyError.js";
import {
  ModelAbortedError,
  type ModelCallError,
  type ModelErrorContext,
  ModelResponseError,
  ModelTimeoutError,
  ModelUnavailableError,
} from "./errors.js";
import type { ServerAuthorization } from "./serverList.js";
import { type TokenLogprobRecorder, withLogprobsRequested } from "./tokenLogprobs.js";

/** The longest line of a streamed answer (an Ollama chunk is a few hundred bytes). */
const MAX_STREAM_LINE_CHARS = 1024 * 1024;
const MAX_STREAM_BYTES = 16 * 1024 * 1024;
/** The most of an unusable line quoted (enough to tell an HTML page from a cut chunk). */
const LINE_QUOTE_LIMIT = 200;

export async function readBoundedText(response: Response, maxBytes = 64 * 1024): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder("utf-8");
  let text = "";
  let read = 0;
  try {
    while (read < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, maxBytes - read);
      read += part.byteLength;
      text += decoder.decode(part, { stream: true });
    }
    return text + decoder.decode();
  } catch {
    return text;
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** A JSON object's `error` field as text (bounded), or undefined when `text` holds none. */
function errorFieldOf(value: unknown): string | undefined {
  if (!isRecord(value) || !("error" in value)) return undefined;
  const { error } = value;
  return boundedText((typeof error === "string" ? error : JSON.stringify(error)) ?? "");
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface StreamCheck {
  context: ModelErrorContext;
  convert: (error: unknown) => ModelCallError;
  /** Every line must be a chat chunk (`/api/chat`, a `message` object), not only a JSON object. */
  chat: boolean;
  /** Told each usable line's object, in order (the token log-probabilities are read here). */
  onChunk?: (chunk: Record<string, unknown>) => void;
}

function notAStream(why: string, check: StreamCheck): ModelCallError {
  return new ModelResponseError(
    `the server's answer is not an Ollama stream: ${why}`,
    check.context,
  );
}

function lineProblem(line: string, number: number, check: StreamCheck): ModelCallError | undefined {
  const chunk = jsonOf(line);
  // An error after the 200 (its runner died, out of memory) is the server failing mid-answer.
  const error = errorFieldOf(chunk);
  if (error !== undefined) return new ModelUnavailableError("server-error", error, check.context);
  if (isRecord(chunk) && (!check.chat || (typeof chunk.message === "object" && chunk.message))) {
    check.onChunk?.(chunk);
    return undefined;
  }
  const what = isRecord(chunk) ? "an Ollama chat chunk" : "a JSON object";
  const quoted = boundedText(line, LINE_QUOTE_LIMIT);
  return notAStream(`line ${number} is not ${what}: "${quoted}"`, check);
}

function tooLong(what: string, limit: number, check: StreamCheck): ModelCallError {
  return notAStream(`${what} is longer than ${limit.toLocaleString("en-US")} characters`, check);
}

/** Re-emits an NDJSON body line by line, each checked; a failed read ends it with `convert`. */
function checkedNdjson(
  body: ReadableStream<Uint8Array>,
  check: StreamCheck,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  const encoder = new TextEncoder();
  let pending = "";
  let lineNumber = 0;
  let total = 0;
  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, lines: string[]) => {
    let passed = 0;
    for (const line of lines) {
      lineNumber += 1;
      if (line.trim() === "") continue;
      const problem = lineProblem(line, lineNumber, check);
      if (problem !== undefined) throw problem;
      controller.enqueue(encoder.encode(`${line}\n`));
      passed += 1;
    }
    return passed;
  };
  const step = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const chunk = await reader.read().catch((error: unknown) => {
      throw check.convert(error);
    });
    if (chunk.done) {
      emit(controller, [pending + decoder.decode()]);
      controller.close();
      return true;
    }
    total += chunk.value.byteLength;
    if (total > MAX_STREAM_BYTES) throw tooLong("the whole answer", MAX_STREAM_BYTES, check);
    // Only the new text is split: a long line arriving in small pieces costs no rescans.
    const lines = decoder.decode(chunk.value, { stream: true }).split("\n");
    lines[0] = pending + (lines[0] ?? "");
    pending = lines.pop() ?? "";
    if (pending.length > MAX_STREAM_LINE_CHARS) {
      throw tooLong(`line ${lineNumber + lines.length + 1}`, MAX_STREAM_LINE_CHARS, check);
    }
    return emit(controller, lines) > 0;
  };
  return new ReadableStream<Uint8Array>({
    // A pull that passes nothing on is not called again by the stream: read on until it does.
    async pull(controller) {
      try {
        while (!(await step(controller))) {}
      } catch (error) {
        controller.error(error);
        reader.cancel(error).catch(() => undefined);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

export function createOllamaFetch(options: {
  baseUrl: string;
  /** The `Authorization` header for every request (basic credentials of the server URL). */
  authorization?: ServerAuthorization;
  timeoutMs: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Ask a chat request for `top` alternatives per token and record the answer's log-probabilities. */
  logprobs?: { top: number; recorder: TokenLogprobRecorder };
}): typeof fetch {
  const baseFetch = options.fetch ?? fetch;
  return async (input, init) => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signals = [timeout, options.signal, init?.signal].filter((s) => s != null);
    const requested: unknown = typeof init?.body === "string" ? jsonOf(init.body) : undefined;
    const context: ModelErrorContext = {
      provider: "ollama",
      model:
        isRecord(requested) && typeof requested.model === "string" ? requested.model : undefined,
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
    };
    const convert = (error: unknown): ModelCallError => {
      if (options.signal?.aborted) return new ModelAbortedError(context, options.signal.reason);
      if (timeout.aborted) return new ModelTimeoutError(options.timeoutMs, context, error);
      return classifyModelError(error, context);
    };
    if (options.signal?.aborted) throw new ModelAbortedError(context, options.signal.reason);

    const url = input instanceof Request ? input.url : String(input);
    const chat = URL.canParse(url) && new URL(url).pathname.endsWith("/api/chat");
    const { logprobs, authorization } = options;
    const logprobsAsked = chat && logprobs !== undefined;
    let headers = init?.headers;
    if (authorization !== undefined) {
      headers = new Headers(init?.headers);
      if (!headers.has("authorization")) headers.set("authorization", authorization.headerValue());
    }
    let response: Response;
    try {
      response = await baseFetch(input, {
        ...init,
        body: logprobsAsked ? withLogprobsRequested(init?.body, logprobs.top) : init?.body,
        headers,
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      throw convert(error);
    }
    if (!response.ok) {
      const text = (await readBoundedText(response)).trim();
      const detail =
        errorFieldOf(jsonOf(text)) ??
        (text === "" ? `HTTP ${response.status} ${response.statusText}`.trim() : boundedText(text));
      const retryAfterMs = parseRetryAfter(
        response.headers.get("retry-after"),
        response.headers.get("retry-after-ms"),
      );
      throw errorFromStatus(response.status, detail, context, retryAfterMs);
    }
    const streamed = typeof init?.body === "string" && /"stream"\s*:\s*true/.test(init.body);
    if (!response.body || !streamed) return response;
    const onChunk = logprobsAsked
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
