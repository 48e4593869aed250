/**
 * Jinja-compatible prompt templates (nunjucks), compiled in a hardened, loader-less environment: no
 * `include`, `import`, `from` or `extends` (nothing is read from disk or the network), autoescape
 * off (a prompt is not HTML), no access to constructors or prototypes of the values in scope, and
 * a bounded `range`. A template is untrusted input: a catalog is checked with it when it is loaded,
 * and the judge renders with it.
 */
import nunjucks from "nunjucks";

/** The most items `range()` gives. */
export const MAX_RANGE_ITEMS = 10_000;

/** Tags that would reach other templates (files, URLs): refused before anything is compiled. */
const FILE_TAG = /\{%-?\s*(include|import|from|extends)\b/;
/** Property names that lead from a value to code (Function, prototypes). */
const FORBIDDEN_MEMBERS = new Set([
  "constructor",
  "prototype",
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "call",
  "apply",
  "bind",
]);

type RuntimeModule = {
  memberLookup: (obj: unknown, key: unknown) => unknown;
  callWrap: (obj: unknown, name: string, context: unknown, args: unknown[]) => unknown;
};

let hardened = false;

/**
 * Makes nunjucks' member lookup refuse the names that lead to code, and its calls refuse the
 * Function constructor, for every template of the process (evalgate renders only prompts).
 */
function hardenRuntime(): void {
  if (hardened) return;
  hardened = true;
  const runtime = (nunjucks as unknown as { runtime: RuntimeModule }).runtime;
  const lookup = runtime.memberLookup;
  runtime.memberLookup = (obj, key) => {
    if (typeof key === "string" && FORBIDDEN_MEMBERS.has(key)) {
      throw new Error(`'${key}' cannot be read in a prompt template`);
    }
    return lookup(obj, key);
  };
  const callWrap = runtime.callWrap;
  runtime.callWrap = (obj, name, context, args) => {
    if (obj === Function || (typeof obj === "function" && obj.name === "Function")) {
      throw new Error(`'${name}' cannot be called in a prompt template`);
    }
    return callWrap(obj, name, context, args);
  };
}

function boundedRange(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (![from, to, step].every(Number.isFinite) || step === 0) {
    throw new Error("range() needs finite numbers and a step other than 0");
  }
  const count = Math.max(0, Math.ceil((to - from) / step));
  if (count > MAX_RANGE_ITEMS) {
    throw new Error(`range() would give ${count} items; at most ${MAX_RANGE_ITEMS} are allowed`);
  }
  return Array.from({ length: count }, (_, i) => from + i * step);
}

function environment(): nunjucks.Environment {
  hardenRuntime();
  const env = new nunjucks.Environment([], { autoescape: false, throwOnUndefined: false });
  env.addGlobal("range", boundedRange);
  return env;
}

/** The one environment every prompt template compiles in. */
export const PROMPT_TEMPLATE_ENV = environment();

/** What is wrong with a template, and where in it (1-based). */
export interface PromptTemplateProblem {
  message: string;
  line?: number;
  column?: number;
}

/**
 * Line and column (1-based) of a nunjucks error, when its message says: its parser counts from 1,
 * its renderer from 0.
 */
export function placeOf(
  message: string,
  phase: "compile" | "render",
): { line?: number; column?: number } {
  const match = /\[Line (\d+)(?:, Column (\d+))?\]/.exec(message);
  if (match === null) return {};
  const shift = phase === "render" ? 1 : 0;
  const line = Number(match[1]) + shift;
  return match[2] === undefined ? { line } : { line, column: Number(match[2]) + shift };
}

/** The message of a nunjucks error without its "(unknown path) [Line …]" preamble. */
export function detailOf(message: string): string {
  return message
    .replace(/^\(unknown path\)\s*/, "")
    .replace(/\[Line \d+(, Column \d+)?\]\s*/, "")
    .replace(/^\s*Template render error:\s*/i, "")
    .replace(/^\s*(Type|Range|Reference)?Error:\s*/, "")
    .replace(/\s+/g, " ")
    .trim();
}

function fileTagProblem(template: string): PromptTemplateProblem | undefined {
  const match = FILE_TAG.exec(template);
  if (match === null) return undefined;
  const before = template.slice(0, match.index);
  return {
    message: `'${match[1]}' is not allowed in a prompt template: templates cannot read other templates or files`,
    line: before.split("\n").length,
    column: match.index - before.lastIndexOf("\n"),
  };
}

/**
 * Compiles a template: the compiled template, or the problem (a forbidden tag, a syntax error)
 * with its line.
 */
export function compilePromptTemplate(
  template: string,
): { compiled: nunjucks.Template } | { problem: PromptTemplateProblem } {
  const refused = fileTagProblem(template);
  if (refused !== undefined) return { problem: refused };
  try {
    return { compiled: new nunjucks.Template(template, PROMPT_TEMPLATE_ENV, undefined, true) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const detail = detailOf(message) || "the template cannot be compiled";
    return { problem: { message: detail, ...placeOf(message, "compile") } };
  }
}
