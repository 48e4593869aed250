/**
 * The cause kept on a model error, fit to leave the model layer: the original error when nothing
 * in it (message, stack, text fields, its own causes) holds a credential or an oversized text;
 * otherwise a plain copy with the text redacted and cut to size, its network `code` and HTTP
 * status kept (the classification reads them), its own causes treated the same way.
 */
import { boundedText, MESSAGE_LIMIT, redactSecretText } from "../redact.js";

/** How many causes deep the chain is read and kept. */
const MAX_CAUSE_DEPTH = 4;
/** Text fields of an error looked at (SDK errors keep the response body in `error`, `body`…). */
const TEXT_FIELDS = ["message", "stack", "error", "body", "responseBody", "detail", "url"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isClean(text: string): boolean {
  return text.length <= MESSAGE_LIMIT * 4 && redactSecretText(text) === text;
}

function ownTexts(error: Record<string, unknown>): string[] {
  const texts: string[] = [];
  for (const field of TEXT_FIELDS) {
    const value = error[field];
    if (typeof value === "string") texts.push(value);
    else if (isRecord(value) && field !== "message" && field !== "stack") {
      texts.push(JSON.stringify(value)?.slice(0, MESSAGE_LIMIT * 4 + 1) ?? "");
    }
  }
  return texts;
}

function isCleanChain(cause: unknown, depth: number): boolean {
  if (typeof cause === "string") return isClean(cause);
  if (!isRecord(cause)) return true;
  if (depth >= MAX_CAUSE_DEPTH) return cause.cause === undefined && ownTexts(cause).every(isClean);
  return ownTexts(cause).every(isClean) && isCleanChain(cause.cause, depth + 1);
}

/** The frames of a stack (its first line repeats the message, which is replaced). */
function framesOf(stack: unknown): string {
  if (typeof stack !== "string") return "";
  const frames = stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 20);
  return frames.length === 0 ? "" : `\n${redactSecretText(frames.join("\n"))}`;
}

function safeCopy(cause: unknown, depth: number): unknown {
  if (typeof cause === "string") return boundedText(cause, MESSAGE_LIMIT);
  if (!isRecord(cause)) return cause;
  const message = typeof cause.message === "string" ? cause.message : String(cause);
  const copy = new Error(boundedText(message, MESSAGE_LIMIT));
  copy.name = typeof cause.name === "string" ? cause.name.slice(0, 100) : "Error";
  copy.stack = `${copy.name}: ${copy.message}${framesOf(cause.stack)}`;
  const fields: Record<string, unknown> = {};
  if (typeof cause.code === "string" || typeof cause.code === "number") fields.code = cause.code;
  for (const key of ["status", "status_code", "statusCode"]) {
    if (typeof cause[key] === "number") fields[key] = cause[key];
  }
  if (cause.cause !== undefined && depth < MAX_CAUSE_DEPTH) {
    fields.cause = safeCopy(cause.cause, depth + 1);
  }
  return Object.assign(copy, fields);
}

/** `cause` as is when it is clean, else a redacted, bounded copy (see the file's comment). */
export function safeCause(cause: unknown): unknown {
  if (cause === undefined || isCleanChain(cause, 0)) return cause;
  return safeCopy(cause, 0);
}
