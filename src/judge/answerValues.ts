import type { Level, Scale } from "../criteria/model.js";
import { roundScore, toUnit } from "../scoring/scale.js";
import { MAX_LIST_ITEMS, MAX_QUOTE_CHARS, MAX_QUOTES } from "./answer.js";
import type { LenientObject, LenientValue } from "./jsonObjectScan.js";

export type ValueRead<T> = { ok: true; value: T; notes: string[] } | { ok: false; error: string };

export function normaliseKey(key: string): string {
  return key
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

const REASONING_FIELDS = [
  "reasoning",
  "reason",
  "rationale",
  "explanation",
  "justification",
  "reflection",
] as const;
export const SCORE_FIELDS = ["score", "coverage_extent", "coverage"] as const;
export const RESULT_FIELDS = ["result", "verdict", "passed", "pass"] as const;
export const LEVEL_FIELDS = ["level_id", "levelid", "level"] as const;

export function fieldOf(
  object: LenientObject,
  names: readonly string[],
): { key: string; value: LenientValue } | undefined {
  const byName = new Map<string, { key: string; value: LenientValue }>();
  for (const [key, value] of Object.entries(object)) {
    const name = normaliseKey(key);
    if (!byName.has(name)) byName.set(name, { key, value });
  }
  for (const name of names) {
    const found = byName.get(name);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function describeValue(value: LenientValue): string {
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function onScale(unit: number, scale: Scale): number {
  return scale.min + unit * (scale.max - scale.min);
}

/** A number, or the number a string writes ("4", "4/5", "4 out of 5", "80%"), on `scale`. */
function numberFrom(value: LenientValue, scale: Scale): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (/^[+-]?(?:\d+(?:\.\d+)?|\.\d+)$/.test(text)) return Number(text);
  const ratio = /^([+-]?\d+(?:\.\d+)?)\s*(?:\/|out of)\s*(\d+(?:\.\d+)?)$/i.exec(text);
  if (ratio !== null) {
    const numerator = Number(ratio[1]);
    const denominator = Number(ratio[2]);
    if (denominator === scale.max) return numerator;
    if (denominator > 0) return onScale(numerator / denominator, scale);
    return undefined;
  }
  const percent = /^([+-]?\d+(?:\.\d+)?)\s*%$/.exec(text);
  if (percent !== null) return onScale(Number(percent[1]) / 100, scale);
  return undefined;
}

/** Rounding noise past an end of the scale (1.0000001), as a share of its range. */
const SCALE_TOLERANCE = 1e-6;

/**
 * A score on its native scale and its 0–1 value. Off the scale is an error (a judge that answers
 * off its scale may have misread it) unless within the catalog's `outOfRange: "clamp"` tolerance.
 */
export function readScore(
  value: LenientValue,
  scale: Scale,
  field = "score",
  clampTolerance = 0,
): ValueRead<{ native: number; score01: number }> {
  if (value === null) return { ok: false, error: `${field} is null` };
  const raw = numberFrom(value, scale);
  if (raw === undefined) {
    return { ok: false, error: `${field} must be a number, got ${describeValue(value)}` };
  }
  const range = scale.max - scale.min;
  const noise = SCALE_TOLERANCE * range;
  const past = Math.max(raw - scale.max, scale.min - raw, 0);
  const notes: string[] = [];
  const where = `${field} ${describeValue(value)} is outside ${scale.min}–${scale.max}`;
  if (past > clampTolerance * range + noise) {
    const allowed =
      clampTolerance > 0
        ? ` by more than the ${roundScore(clampTolerance * 100, 2)}% of the scale the catalog reads as its end`
        : "";
    return { ok: false, error: `${where}${allowed}` };
  }
  let native = Math.min(scale.max, Math.max(scale.min, raw));
  if (past > noise) notes.push(`${where}: read as ${native} (the catalog clamps it)`);
  if (scale.integer && !Number.isInteger(native)) {
    const rounded = Math.round(native);
    notes.push(`${field} ${roundScore(native, 4)} rounded to the whole number ${rounded}`);
    native = rounded;
  }
  native = roundScore(native);
  return { ok: true, value: { native, score01: toUnit(native, scale) }, notes };
}

const PASS_WORDS = new Set(["pass", "passed", "yes", "true"]);
const FAIL_WORDS = new Set(["fail", "failed", "no", "false"]);

export function readCheck(value: LenientValue, field = "result"): ValueRead<"pass" | "fail"> {
  if (typeof value === "boolean") return { ok: true, value: value ? "pass" : "fail", notes: [] };
  if (typeof value === "string") {
    const word = value
      .trim()
      .toLowerCase()
      .replace(/[.!]+$/, "");
    if (PASS_WORDS.has(word)) return { ok: true, value: "pass", notes: [] };
    if (FAIL_WORDS.has(word)) return { ok: true, value: "fail", notes: [] };
  }
  return { ok: false, error: `${field} ${describeValue(value)} is not pass or fail` };
}

/** By id, then case-insensitively, then by label; two matches at one step are no match. */
function matchLevel(answer: string, levels: readonly Level[]): Level | undefined {
  const text = answer.trim();
  const lower = text.toLowerCase();
  const tries: Array<(l: Level) => boolean> = [
    (l) => l.id === text,
    (l) => l.id.toLowerCase() === lower,
    (l) => l.label === text,
    (l) => l.label.toLowerCase() === lower,
  ];
  for (const matches of tries) {
    const found = levels.filter(matches);
    if (found.length === 1) return found[0];
    if (found.length > 1) return undefined;
  }
  return undefined;
}

export function readLevel(
  value: LenientValue,
  levels: readonly Level[],
  field = "level_id",
): ValueRead<Level> {
  const ids = levels.map((l) => l.id).join(", ");
  if (typeof value !== "string") {
    return { ok: false, error: `${field} must be one of: ${ids}; got ${describeValue(value)}` };
  }
  const level = matchLevel(value, levels);
  if (level === undefined) {
    return { ok: false, error: `${field} '${value.trim()}' is not one of: ${ids}` };
  }
  const notes =
    level.id === value ? [] : [`${field} '${value.trim()}' read as level '${level.id}'`];
  return { ok: true, value: level, notes };
}

export function readList(value: LenientValue | undefined): string[] {
  return readAllStrings(value).slice(0, MAX_LIST_ITEMS);
}

export const QUOTE_FIELDS = ["quotes", "quote", "citations"] as const;

/** Ways a judge writes "nothing to quote"; a text without a letter or digit ("…", "-") is none either. */
const NO_QUOTE = new Set(["null", "none", "n/a", "na", "nil"]);

/** Whether a judge's quote quotes something, as opposed to saying there is nothing to quote. */
export function isQuote(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text) && !NO_QUOTE.has(text.trim().toLowerCase());
}

/** The judge's quotes, bounded: what it copies from untrusted content is untrusted too. */
export function readQuotes(value: LenientValue | undefined): { quotes: string[]; notes: string[] } {
  const notes: string[] = [];
  const all = readAllStrings(value).filter(isQuote);
  if (all.length > MAX_QUOTES)
    notes.push(`only the first ${MAX_QUOTES} of ${all.length} quotes are checked`);
  const quotes = all.slice(0, MAX_QUOTES).map((quote) => {
    if (quote.length <= MAX_QUOTE_CHARS) return quote;
    notes.push(`a quote of ${quote.length} characters was cut to ${MAX_QUOTE_CHARS}`);
    return quote.slice(0, MAX_QUOTE_CHARS);
  });
  return { quotes, notes };
}

function readAllStrings(value: LenientValue | undefined): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  return items
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

export function readReasoning(object: LenientObject): string {
  const found = fieldOf(object, REASONING_FIELDS);
  return typeof found?.value === "string" ? found.value.trim() : "";
}

/** The longest judge response the parsers read; a longer one is a judge error naming its size. */
export const MAX_ANSWER_CHARS = 64 * 1024;

const REASONING_TAGS = ["think", "thinking", "thought", "scratchpad"] as const;

export function answerTooLong(text: string, maxChars = MAX_ANSWER_CHARS): string | undefined {
  if (text.length <= maxChars) return undefined;
  return `the answer is ${text.length} characters long; at most ${maxChars} are read`;
}

export interface AnswerText {
  text: string;
  /** A reasoning block was opened and never closed: the answer never came. */
  unclosed: boolean;
}

function indexOfTag(text: string, tag: string, from: number): number {
  const pattern = new RegExp(tag, "gi");
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}

/**
 * The response without its reasoning blocks (`<think>…</think>`), so a draft answer in them never
 * counts. A closing tag alone (templates open the block in the prompt) drops everything before it.
 */
export function stripReasoningBlocks(text: string): AnswerText {
  let out = text;
  let unclosed = false;
  for (const name of REASONING_TAGS) {
    const close = `</${name}>`;
    const firstOpen = indexOfTag(out, `<${name}>`, 0);
    const firstClose = indexOfTag(out, close, 0);
    if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) {
      out = out.slice(firstClose + close.length);
    }
    const blocks = taggedTexts(out, name);
    out = blocks.outside;
    unclosed ||= blocks.open;
  }
  return { text: out, unclosed };
}

/** The text of every `<name>…</name>` and the text outside them; `open` when the last never closes. */
export function taggedTexts(
  text: string,
  name: string,
): { inners: string[]; outside: string; open: boolean } {
  const open = `<${name}>`;
  const close = `</${name}>`;
  const inners: string[] = [];
  let outside = "";
  let from = 0;
  for (;;) {
    const start = indexOfTag(text, open, from);
    if (start === -1) return { inners, outside: outside + text.slice(from), open: false };
    outside += text.slice(from, start);
    const end = indexOfTag(text, close, start + open.length);
    if (end === -1) return { inners, outside, open: true };
    inners.push(text.slice(start + open.length, end));
    from = end + close.length;
  }
}
