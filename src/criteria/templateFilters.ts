/** Jinja's filter names for prompt templates: Liquid's filter where it has one, else a plain function. */
import { type FilterImplOptions, toValue } from "liquidjs";
import { textOf } from "./templateText.js";

type FilterHandler = Extract<FilterImplOptions, (...args: never[]) => unknown>;
type FilterCall = ThisParameterType<FilterHandler>;

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

/** `*_exp` filters parse content as template code; `sample` would make a prompt random. */
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

/** The number of a list that `replaces` every other (the first of equals), none for no number. */
function extreme(value: unknown, replaces: (a: number, b: number) => boolean): number | undefined {
  return numbersIn(value).reduce<number | undefined>(
    (a, b) => (a === undefined || replaces(a, b) ? b : a),
    undefined,
  );
}

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
  min: (value: unknown) => extreme(value, (a, b) => b < a),
  max: (value: unknown) => extreme(value, (a, b) => b > a),
  safe(value: unknown): unknown {
    return value;
  },
};
