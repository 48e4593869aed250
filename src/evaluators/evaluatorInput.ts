/**
 * What an evaluator is called with, as LangSmith's `evaluate()` and openevals call evaluators —
 * `{ inputs, outputs, referenceOutputs }` (LangSmith adds `run`, `example` and the run's own
 * fields) — and how the content to judge and the reference answer are read from it.
 */
import { isRecord } from "../untrusted/json.js";

/** The argument of an evaluator. Fields besides these three are accepted and not read. */
export interface EvaluatorInput {
  inputs?: unknown;
  /** What the application produced for the example: what is judged. */
  outputs?: unknown;
  /** The example's reference outputs: the reference of the reference-based point functions. */
  referenceOutputs?: unknown;
  [key: string]: unknown;
}

/** Keys whose text is taken as the content (or the reference), in this order. */
const TEXT_KEYS = ["output", "answer", "content", "text", "response", "result"] as const;

function ownString(record: Record<string, unknown>, key: string): string | undefined {
  if (!Object.hasOwn(record, key)) return undefined;
  const value = record[key];
  return typeof value === "string" ? value : undefined;
}

/** The text of the last message of a `messages` list (`{ role, content }` or a chat message). */
function lastMessageText(record: Record<string, unknown>): string | undefined {
  const messages = Object.hasOwn(record, "messages") ? record.messages : undefined;
  if (!Array.isArray(messages)) return undefined;
  const last: unknown = messages.at(-1);
  return isRecord(last) ? ownString(last, "content") : undefined;
}

/**
 * The text an outputs value holds: the value itself when it is text; else the first text of
 * `output`, `answer`, `content`, `text`, `response`, `result`; else the only field when there is
 * one and it is text; else the last message's text of `messages`. Undefined when none applies.
 */
export function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!isRecord(value)) return undefined;
  for (const key of TEXT_KEYS) {
    const text = ownString(value, key);
    if (text !== undefined) return text;
  }
  const keys = Object.keys(value);
  const only = keys.length === 1 && keys[0] !== undefined ? ownString(value, keys[0]) : undefined;
  return only ?? lastMessageText(value);
}

/** The content judged by default: the outputs' text (textOf), else the outputs as they are. */
export function defaultContent(input: EvaluatorInput): unknown {
  return textOf(input.outputs) ?? input.outputs;
}

/** The reference by default: the reference outputs' text, when they have some that is not blank. */
export function defaultReference(input: EvaluatorInput): string | undefined {
  const text = textOf(input.referenceOutputs);
  return text === undefined || text.trim() === "" ? undefined : text;
}
