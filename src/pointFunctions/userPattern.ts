/**
 * A catalog's regular expressions, run in linear time by re2js (no pattern can hang on any text),
 * in JavaScript syntax with its meaning kept where RE2 differs (`\s`, `.`, `[]`, `[^]`, `\a \A \z
 * \Q \E`). Backreferences and lookahead cannot run in linear time and are refused.
 */
import { RE2JS, RE2JSSyntaxException } from "re2js";

export const MAX_PATTERN_LENGTH = 1_000;

/** JavaScript's `\s`: ASCII whitespace, U+00A0, U+FEFF and the Unicode space separators. */
const JS_SPACE =
  "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
const JS_DOT = "[^\\n\\r\\x{2028}\\x{2029}]";
const NOTHING = "[^\\x{0}-\\x{10FFFF}]";
const ANYTHING = "[\\x{0}-\\x{10FFFF}]";

export type UserPattern = { pattern: RE2JS } | { problem: string };

/** Escapes JavaScript reads as the letter itself, where RE2 gives them a meaning. */
const JS_LITERAL_ESCAPES = new Set(["a", "A", "z", "Q", "E"]);

function backreference(fragment: string): { problem: string } {
  return {
    problem: `backreference ${JSON.stringify(fragment)} is not supported: patterns run in linear time (RE2), which backreferences do not allow`,
  };
}

function capturingGroups(source: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i++;
    else if (inClass) inClass = ch !== "]";
    else if (ch === "[") inClass = true;
    else if (ch === "(" && (source[i + 1] !== "?" || /^\(\?<[^=!]/.test(source.slice(i, i + 4)))) {
      count++;
    }
  }
  return count;
}

/** `\1`…`\9` are backreferences when the pattern has that many groups, else JavaScript digits or octal. */
function escapeFor(
  source: string,
  i: number,
  inClass: boolean,
  groups: number,
): string | { problem: string } {
  const next = source[i + 1]!;
  if (!inClass && /[1-9]/.test(next)) {
    if (Number(next) <= groups) return backreference(`\\${next}`);
    if (next === "8" || next === "9") return next;
    const octal = JSON.stringify(`\\${next}`);
    return { problem: `octal escape ${octal} is not supported: write it as \\x0${next}` };
  }
  if (!inClass && next === "k" && source[i + 2] === "<") return backreference("\\k<…>");
  if (next === "s") return inClass ? JS_SPACE : `[${JS_SPACE}]`;
  if (next === "S" && !inClass) return `[^${JS_SPACE}]`;
  if (JS_LITERAL_ESCAPES.has(next)) return next;
  return `\\${next}`;
}

/** Backreferences are refused here, before re2js's translation would read `\k` as a plain `k`. */
function toRe2Syntax(source: string): { text: string } | { problem: string } {
  const groups = capturingGroups(source);
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === "\\" && i + 1 < source.length) {
      const escaped = escapeFor(source, i, inClass, groups);
      if (typeof escaped !== "string") return escaped;
      out += escaped;
      i++;
    } else if (!inClass && source.startsWith("[]", i)) {
      out += NOTHING;
      i++;
    } else if (!inClass && source.startsWith("[^]", i)) {
      out += ANYTHING;
      i += 2;
    } else if (!inClass && ch === "[") {
      inClass = true;
      out += source.startsWith("[^", i) ? "[^" : "[";
      if (source.startsWith("[^", i)) i++;
    } else if (inClass && ch === "]") {
      inClass = false;
      out += ch;
    } else out += !inClass && ch === "." ? JS_DOT : ch;
  }
  return { text: RE2JS.translateRegExp(out) };
}

function describeRefusal(error: unknown): string {
  if (!(error instanceof RE2JSSyntaxException)) {
    return error instanceof Error ? error.message : String(error);
  }
  const fragment = error.getPattern() ?? "";
  if (/^\(\?[=!]/.test(fragment)) {
    return `lookahead ${JSON.stringify(fragment)} is not supported: patterns run in linear time (RE2), which lookahead does not allow`;
  }
  if (/^\\[1-9]/.test(fragment)) return backreference(fragment).problem;
  return `${error.getDescription()}${fragment === "" ? "" : ` at ${JSON.stringify(fragment)}`}`;
}

const cache = new Map<string, UserPattern>();
const CACHE_LIMIT = 256;

/**
 * Compiles a catalog's pattern for linear-time matching, or says why it cannot be used.
 *
 * @example
 * const compiled = compileUserPattern("\\d+ (percent|%)", { ignoreCase: true });
 * if ("pattern" in compiled) compiled.pattern.test(text);
 */
export function compileUserPattern(
  source: string,
  options: { ignoreCase?: boolean } = {},
): UserPattern {
  const key = `${options.ignoreCase === true ? "i" : "-"}${source}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const compiled = compile(source, options.ignoreCase === true);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

function compile(source: string, ignoreCase: boolean): UserPattern {
  if (source.length > MAX_PATTERN_LENGTH) {
    return {
      problem: `the pattern is ${source.length} characters long, over the limit of ${MAX_PATTERN_LENGTH}`,
    };
  }
  const syntax = toRe2Syntax(source);
  if ("problem" in syntax) return syntax;
  const flags = RE2JS.LOOKBEHINDS | (ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  try {
    return { pattern: RE2JS.compile(syntax.text, flags) };
  } catch (error) {
    return { problem: describeRefusal(error) };
  }
}

export function patternProblem(source: string, options: { ignoreCase?: boolean } = {}) {
  const compiled = compileUserPattern(source, options);
  return "problem" in compiled ? compiled.problem : undefined;
}

/**
 * Ajv's regular-expression engine: a JSON Schema's `pattern` and `patternProperties` keys run as a
 * catalog's patterns do (linear time; backreferences and lookahead refused when it compiles).
 */
export const linearSchemaRegExp = Object.assign(
  (source: string): { test(text: string): boolean } => {
    const compiled = compileUserPattern(source);
    if ("problem" in compiled)
      throw new Error(`pattern ${JSON.stringify(source)}: ${compiled.problem}`);
    return { test: (text: string) => compiled.pattern.test(text) };
  },
  { code: "linearSchemaRegExp" },
);
