/**
 * Filters under the names Jinja authors write (`upper`, `length`, `title`, `int`…), for prompt
 * templates rendered by LiquidJS. Where Liquid has the filter under another name it is the same
 * filter (and counts its memory the same way); the rest are plain functions of plain values:
 * none calls a value, reads a prototype or builds a string larger than its input allows. Each
 * value is measured before it becomes text (templateText.ts).
 */
import { type FilterImplOptions, toValue } from "liquidjs";
import { textOf } from "./templateText.js";

type FilterHandler = Extract<FilterImplOptions, (...args: never[]) => unknown>;
/** What a filter sees as `this`: the render's context (for the memory budget). */
type FilterCall = ThisParameterType<FilterHandler>;

/** Jinja's name → Liquid's filter of the same meaning. */
export const JINJA_FILTER_ALIASES: ReadonlyMap<string, string> = new Map([
  ["upper", "upcase"],
  ["lower", "downcase"],
  ["length", "size"],
  ["count", "size"],
  ["trim", "strip"],
  ["unique", "uniq"],
  ["striptags", "strip_html"],
  ["tojson", "json"],
  ["e", "escape"],
  ["d", "default"],
  ["wordcount", "number_of_words"],
]);

/**
 * Liquid filters prompt templates do not get: the `*_exp` filters parse a string as an expression
 * while rendering (content could write template code), and `sample` would make a prompt random.
 */
export const WITHHELD_FILTERS: readonly string[] = [
  "where_exp",
  "reject_exp",
  "group_by_exp",
  "has_exp",
  "find_exp",
  "find_index_exp",
  "sample",
];

function charged(call: FilterCall, text: string): string {
  call.context.memoryLimit.use(text.length);
  return text;
}

/** A number from a value, or `fallback` when it has none (Jinja's `int` and `float`). */
function numberOf(value: unknown, fallback: unknown): number {
  const plain = toValue(value);
  const parsed = typeof plain === "number" ? plain : Number.parseFloat(textOf(plain));
  if (Number.isFinite(parsed)) return parsed;
  const other = typeof fallback === "number" ? fallback : Number(fallback);
  return Number.isFinite(other) ? other : 0;
}

function numbersIn(value: unknown): number[] {
  const plain = toValue(value);
  if (!Array.isArray(plain)) return [];
  return plain.map((item) => toValue(item)).filter((n): n is number => typeof n === "number");
}

/** The filters Jinja has and Liquid does not, as plain functions. */
export const JINJA_FILTERS: Readonly<Record<string, FilterHandler>> = {
  title(this: FilterCall, value: unknown): string {
    const text = charged(this, textOf(value));
    return text.toLowerCase().replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_, before, letter) => {
      return `${before}${letter.toUpperCase()}`;
    });
  },
  int(value: unknown, fallback: unknown = 0): number {
    return Math.trunc(numberOf(value, fallback));
  },
  float(value: unknown, fallback: unknown = 0): number {
    return numberOf(value, fallback);
  },
  string(this: FilterCall, value: unknown): string {
    return charged(this, textOf(value));
  },
  list(this: FilterCall, value: unknown): unknown[] {
    const plain = toValue(value);
    if (Array.isArray(plain)) return plain;
    if (typeof plain !== "string") return [plain];
    this.context.memoryLimit.use(plain.length);
    return Array.from(plain);
  },
  min(value: unknown): number | undefined {
    return numbersIn(value).reduce<number | undefined>(
      (a, b) => (a === undefined || b < a ? b : a),
      undefined,
    );
  },
  max(value: unknown): number | undefined {
    return numbersIn(value).reduce<number | undefined>(
      (a, b) => (a === undefined || b > a ? b : a),
      undefined,
    );
  },
  /** Output is never escaped in a prompt: `safe` is accepted and changes nothing. */
  safe(value: unknown): unknown {
    return value;
  },
};
