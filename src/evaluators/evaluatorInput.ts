import { isRecord } from "../untrusted/json.js";

/** The argument of an evaluator (LangSmith's extra fields are accepted and not read). */
export interface EvaluatorInput {
  inputs?: unknown;
  /** What is judged. */
  outputs?: unknown;
  referenceOutputs?: unknown;
  [key: string]: unknown;
}

/** Keys whose text is taken as the content (or the reference), in this order. */
const TEXT_KEYS = ["output", "answer", "content", "text", "response", "result"] as const;

/** Text, or the text blocks of a message's content list (`[{ type: "text", text }, …]`) joined. */
function textValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return undefined;
  const texts = value.flatMap((block: unknown) =>
    isRecord(block) && block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
  return texts.length > 0 ? texts.join("") : undefined;
}

function ownString(record: Record<string, unknown>, key: string): string | undefined {
  return Object.hasOwn(record, key) ? textValue(record[key]) : undefined;
}

function lastMessageText(record: Record<string, unknown>): string | undefined {
  const messages = Object.hasOwn(record, "messages") ? record.messages : undefined;
  if (!Array.isArray(messages)) return undefined;
  const last: unknown = messages.at(-1);
  return isRecord(last) ? ownString(last, "content") : undefined;
}

/** The text itself, a TEXT_KEYS field, the only field, or the last message of `messages`. */
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

/** LangSmith keeps what a target returned that is not an object as `{ outputs: value }`. */
function targetValue(outputs: unknown): unknown {
  const wrapped = isRecord(outputs) && Object.keys(outputs).join() === "outputs";
  return wrapped ? outputs.outputs : outputs;
}

export function defaultContent(input: EvaluatorInput): unknown {
  const outputs = targetValue(input.outputs);
  return textOf(outputs) ?? outputs;
}

export function defaultReference(input: EvaluatorInput): string | undefined {
  const text = textOf(input.referenceOutputs);
  return text === undefined || text.trim() === "" ? undefined : text;
}
