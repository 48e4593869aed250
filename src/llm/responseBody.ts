/**
 * A model server's body within bounds: an error body read up to ERROR_BODY_READ_BYTES, and a
 * streamed answer checked line by line, since ollama-js prints every unparseable line (and blank
 * ones) in full on stderr: a bad, too long or blank line never reaches it.
 */

import { boundedText } from "../redact.js";
import { isRecord } from "../untrusted/json.js";
import {
  type ModelCallError,
  type ModelErrorContext,
  ModelResponseError,
  ModelUnavailableError,
} from "./errors.js";

export const ERROR_BODY_READ_BYTES = 64 * 1024;
/** The longest line of a streamed answer (an Ollama chunk is a few hundred bytes). */
export const MAX_STREAM_LINE_CHARS = 1024 * 1024;
/** The most of an unusable line quoted (enough to tell an HTML page from a cut chunk). */
const LINE_QUOTE_LIMIT = 200;
export const MAX_STREAM_BYTES = 16 * 1024 * 1024;

export async function readBoundedText(
  response: Response,
  maxBytes = ERROR_BODY_READ_BYTES,
): Promise<string> {
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

type JsonObject = Record<string, unknown>;

function jsonObjectOf(line: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A chat chunk carries a `message` object. */
function isChatChunk(chunk: JsonObject): boolean {
  return typeof chunk.message === "object" && chunk.message !== null;
}

export interface StreamCheck {
  context: ModelErrorContext;
  convert: (error: unknown) => ModelCallError;
  /** Every line must be a chat chunk (`/api/chat`), not only a JSON object. */
  chat?: boolean;
  /** Told each usable line's object, in order (the token log-probabilities are read here). */
  onChunk?: (chunk: Record<string, unknown>) => void;
}

function lineProblem(line: string, number: number, check: StreamCheck): ModelCallError | undefined {
  const chunk = jsonObjectOf(line);
  // An error after the 200 (its runner died, out of memory) is the server failing mid-answer.
  if (chunk !== undefined && "error" in chunk) {
    const { error } = chunk;
    const detail = typeof error === "string" ? error : JSON.stringify(error);
    return new ModelUnavailableError("server-error", boundedText(detail ?? ""), check.context);
  }
  if (chunk !== undefined && (check.chat !== true || isChatChunk(chunk))) {
    check.onChunk?.(chunk);
    return undefined;
  }
  const what = chunk === undefined ? "a JSON object" : "an Ollama chat chunk";
  return new ModelResponseError(
    `the server's answer is not an Ollama stream: line ${number} is not ${what}: "${boundedText(line, LINE_QUOTE_LIMIT)}"`,
    check.context,
  );
}

function tooLong(what: string, limit: number, check: StreamCheck): ModelCallError {
  return new ModelResponseError(
    `the server's answer is not an Ollama stream: ${what} is longer than ${limit.toLocaleString("en-US")} characters`,
    check.context,
  );
}

/** Re-emits an NDJSON body line by line, each checked; a failed read ends it with `convert`. */
export function checkedNdjson(
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
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw check.convert(error);
    }
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
