/**
 * How much text a template's value would print as, found before it is built: a list of 1,500
 * references to one 100 kB string costs little memory but prints as gigabytes. Each list is
 * measured once, and counting stops at the bound.
 */
import { toValue } from "liquidjs";

export const MAX_TEMPLATE_TEXT_CHARS = 1_000_000;
export const MAX_LIST_NESTING = 64;

const PRINTED_FORMS = new WeakMap<object, string>();
/** Lists never change: each is measured once. */
const MEASURED = new WeakMap<object, { length: number; depth: number }>();

const OBJECT_TEXT = "[object Object]";

/** Registers how a value of a template's scope is printed by `{{ value }}`. */
export function printAs<T extends object>(value: T, text: string): T {
  PRINTED_FORMS.set(value, text);
  return value;
}

export function printedForm(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? PRINTED_FORMS.get(value) : undefined;
}

export class TemplateLimitError extends Error {
  override readonly name = "TemplateLimitError";
}

function overBound(limit: number): Error {
  return new TemplateLimitError(
    `a value of the template would print as more than ${limit.toLocaleString("en-US")} characters (the bound on text a template builds, MAX_TEMPLATE_TEXT_CHARS)`,
  );
}

/** One more character per list item: an upper bound of Liquid's text and of JavaScript's. */
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

/** A string is its length whatever the bound: it exists already. */
export function checkedTextLength(value: unknown, limit = MAX_TEMPLATE_TEXT_CHARS): number {
  const { length } = measure(value, limit);
  if (length > limit) throw overBound(limit);
  return length;
}

export function checkPrintable(value: unknown): void {
  if (typeof value === "object" && value !== null) checkedTextLength(value);
}

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
