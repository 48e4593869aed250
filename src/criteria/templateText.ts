/**
 * How much text a value of a prompt template would print as, found before the text is built.
 * A list costs little memory however large its text: a list of 1,500 references to one 100 kB
 * string is 1,500 items, and 40 such lists in a list are 40 more — but printed (by `{{ }}`, the
 * `string`, `join` or `upcase` filters, a comparison) they are gigabytes. Every place a template's
 * value becomes text measures it here first, each list once (the measure is kept with the list),
 * and stops counting as soon as the bound is passed: the measure costs at most the bound.
 */
import { toValue } from "liquidjs";

/** The most characters any one value of a template may print as (a list: its items' text). */
export const MAX_TEMPLATE_TEXT_CHARS = 1_000_000;
/** The deepest lists may nest inside lists when a template prints them. */
export const MAX_LIST_NESTING = 64;

/** Lists and objects printed by `{{ … }}` as the text registered for them (see printAs). */
const PRINTED_FORMS = new WeakMap<object, string>();
/** Each list measured whole: its text length and how deep lists nest in it (lists never change). */
const MEASURED = new WeakMap<object, { length: number; depth: number }>();

/** What an object that is not a list prints as ("[object Object]"). */
const OBJECT_TEXT = "[object Object]";

/**
 * Registers how a list or object of a template's scope is printed by `{{ value }}` (instead of
 * Liquid's item-by-item text). Returns the value.
 */
export function printAs<T extends object>(value: T, text: string): T {
  PRINTED_FORMS.set(value, text);
  return value;
}

/** The text registered with printAs for a value, if any. */
export function printedForm(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? PRINTED_FORMS.get(value) : undefined;
}

/** A bound of a render reached (text, nesting, output, steps): not a mistake in the template. */
export class TemplateLimitError extends Error {
  override readonly name = "TemplateLimitError";
}

/** Thrown when a value would print as more than its bound. */
function overBound(limit: number): Error {
  return new TemplateLimitError(
    `a value of the template would print as more than ${limit.toLocaleString("en-US")} characters (the bound on text a template builds, MAX_TEMPLATE_TEXT_CHARS)`,
  );
}

/**
 * The characters `value` prints as, counting one more per list item (an upper bound of Liquid's
 * text and of JavaScript's comma-joined text), and how deep lists nest in it; a length of
 * Infinity once the count passes `limit`.
 */
function measure(value: unknown, limit: number): { length: number; depth: number } {
  const plain = toValue(value);
  if (typeof plain === "string") return { length: plain.length, depth: 0 };
  if (plain === null || plain === undefined) return { length: 0, depth: 0 };
  if (typeof plain !== "object") return { length: String(plain).length, depth: 0 };
  if (!Array.isArray(plain)) {
    return { length: (PRINTED_FORMS.get(plain) ?? OBJECT_TEXT).length, depth: 0 };
  }
  const known = MEASURED.get(plain);
  if (known !== undefined) return known;
  let length = 0;
  let depth = 1;
  for (const item of plain) {
    const inner = measure(item, limit - length);
    length += 1 + inner.length;
    depth = Math.max(depth, inner.depth + 1);
    if (depth > MAX_LIST_NESTING) {
      throw new TemplateLimitError(`the template nests lists more than ${MAX_LIST_NESTING} deep`);
    }
    if (length > limit) return { length: Number.POSITIVE_INFINITY, depth };
  }
  const measured = { length, depth };
  MEASURED.set(plain, measured);
  return measured;
}

/**
 * The characters `value` prints as (an upper bound), or an error naming the bound when it would
 * print as more than `limit` characters. A string is its length, whatever the bound: it exists.
 */
export function checkedTextLength(value: unknown, limit = MAX_TEMPLATE_TEXT_CHARS): number {
  const { length } = measure(value, limit);
  if (length > limit) throw overBound(limit);
  return length;
}

/**
 * Throws (naming the bound) when a value that is not a string would print as more than
 * MAX_TEMPLATE_TEXT_CHARS characters: what a filter or an operator checks its inputs with.
 */
export function checkPrintable(value: unknown): void {
  if (typeof value === "object" && value !== null) checkedTextLength(value);
}

/** A value as text the way Liquid prints it (nothing for nil, lists item by item), measured first. */
export function textOf(value: unknown, limit = MAX_TEMPLATE_TEXT_CHARS): string {
  const plain = toValue(value);
  if (typeof plain === "string") return plain;
  checkedTextLength(plain, limit);
  return joinedText(plain);
}

function joinedText(plain: unknown): string {
  if (typeof plain === "string") return plain;
  if (plain === null || plain === undefined) return "";
  if (Array.isArray(plain)) return plain.map((item) => joinedText(toValue(item))).join("");
  return String(plain);
}
