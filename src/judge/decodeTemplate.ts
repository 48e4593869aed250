/**
 * Decode prompts as Jinja-compatible templates (nunjucks): `{{ q }}`, `{% for q in questions %}`,
 * `{% if %}`, filters. A template is untrusted input, so it is rendered in a loader-less
 * environment (no `include`, `import`, `from` or `extends`: nothing is read from disk or the
 * network), with autoescape off (a prompt is not HTML), no access to constructors or prototypes
 * of the values in scope, a bounded `range`, a bounded render time and a bounded output size.
 */
import { runInNewContext } from "node:vm";
import nunjucks from "nunjucks";
import { DecodeTemplateError, type JudgeErrorLocation } from "./errors.js";

/** The most characters a rendered decode prompt may have. */
export const MAX_DECODE_PROMPT_CHARS = 200_000;
/** The longest a render may take; a template that loops longer is an error, not a hang. */
export const DECODE_RENDER_TIMEOUT_MS = 2_000;
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

const ENV = environment();

/**
 * Line and column (1-based) of a nunjucks error, when its message says: its parser counts from 1,
 * its renderer from 0.
 */
function placeOf(message: string, phase: "compile" | "render"): { line?: number; column?: number } {
  const match = /\[Line (\d+)(?:, Column (\d+))?\]/.exec(message);
  if (match === null) return {};
  const shift = phase === "render" ? 1 : 0;
  const line = Number(match[1]) + shift;
  return match[2] === undefined ? { line } : { line, column: Number(match[2]) + shift };
}

/** The message of a nunjucks error without its "(unknown path) [Line …]" preamble. */
function detailOf(message: string): string {
  return message
    .replace(/^\(unknown path\)\s*/, "")
    .replace(/\[Line \d+(, Column \d+)?\]\s*/, "")
    .replace(/^\s*Template render error:\s*/i, "")
    .replace(/^\s*(Type|Range|Reference)?Error:\s*/, "")
    .replace(/\s+/g, " ")
    .trim();
}

function templateError(
  error: unknown,
  phase: "compile" | "render",
  location: JudgeErrorLocation,
): DecodeTemplateError {
  const message = error instanceof Error ? error.message : String(error);
  if (/Script execution timed out/i.test(message)) {
    return new DecodeTemplateError(
      `rendering took longer than ${DECODE_RENDER_TIMEOUT_MS} ms (a loop too large?)`,
      location,
    );
  }
  return new DecodeTemplateError(detailOf(message) || "the template cannot be rendered", {
    ...location,
    ...placeOf(message, phase),
  });
}

function refuseFileTags(template: string, location: JudgeErrorLocation): void {
  const match = FILE_TAG.exec(template);
  if (match === null) return;
  const before = template.slice(0, match.index);
  throw new DecodeTemplateError(
    `'${match[1]}' is not allowed in a prompt template: templates cannot read other templates or files`,
    {
      ...location,
      line: before.split("\n").length,
      column: match.index - before.lastIndexOf("\n"),
    },
  );
}

/** Compiles a template; throws DecodeTemplateError naming the line of a syntax error. */
function compile(template: string, location: JudgeErrorLocation): nunjucks.Template {
  refuseFileTags(template, location);
  try {
    return new nunjucks.Template(template, ENV, undefined, true);
  } catch (error) {
    throw templateError(error, "compile", location);
  }
}

/**
 * Checks a template without rendering it: the forbidden tags and the syntax. Throws
 * DecodeTemplateError (with the line) when it cannot be rendered.
 */
export function checkDecodeTemplate(template: string, location: JudgeErrorLocation = {}): void {
  compile(template, location);
}

/**
 * Renders a decode prompt with `scope` as its variables. Errors (syntax, a forbidden tag or
 * member, a render taking too long, an output over MAX_DECODE_PROMPT_CHARS) are
 * DecodeTemplateErrors naming `location` and the line. Runs of blank lines are reduced to one.
 */
export function renderDecodeTemplate(
  template: string,
  scope: Readonly<Record<string, unknown>>,
  location: JudgeErrorLocation = {},
): string {
  const compiled = compile(template, location);
  let output: string;
  try {
    const render = () => compiled.render({ ...scope });
    output = runInNewContext("render()", { render }, { timeout: DECODE_RENDER_TIMEOUT_MS });
  } catch (error) {
    throw templateError(error, "render", location);
  }
  if (typeof output !== "string") {
    throw new DecodeTemplateError("the template rendered no text", location);
  }
  if (output.length > MAX_DECODE_PROMPT_CHARS) {
    throw new DecodeTemplateError(
      `the rendered prompt has ${output.length} characters; at most ${MAX_DECODE_PROMPT_CHARS} are allowed`,
      location,
    );
  }
  return output.replace(/\n[ \t]*\n(?:[ \t]*\n)+/g, "\n\n").trim();
}

/** Whether a template refers to a variable (as `{{ name }}`, `{{ name.x }}`, `for x in name`…). */
export function templateUsesVariable(template: string, name: string): boolean {
  const tags = template.match(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g) ?? [];
  const word = new RegExp(`(^|[^\\w.'"])${name}\\b`);
  return tags.some((tag) => word.test(tag.slice(2, -2)));
}
