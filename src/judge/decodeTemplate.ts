/**
 * Decode prompts as Jinja-compatible templates (nunjucks): `{{ q }}`, `{% for q in questions %}`,
 * `{% if %}`, filters. A template is untrusted input, so it is rendered in a loader-less
 * environment (no `include`, `import`, `from` or `extends`: nothing is read from disk or the
 * network), with autoescape off (a prompt is not HTML), no access to constructors or prototypes
 * of the values in scope, a bounded `range`, a bounded render time and a bounded output size.
 */
import { runInNewContext } from "node:vm";
import type nunjucks from "nunjucks";
import { compilePromptTemplate, detailOf, placeOf } from "../criteria/promptTemplate.js";
import { DecodeTemplateError, type JudgeErrorLocation } from "./errors.js";

/** The most characters a rendered decode prompt may have. */
export const MAX_DECODE_PROMPT_CHARS = 200_000;
/** The longest a render may take; a template that loops longer is an error, not a hang. */
export const DECODE_RENDER_TIMEOUT_MS = 2_000;
/** The most items `range()` gives. */
export { MAX_RANGE_ITEMS } from "../criteria/promptTemplate.js";

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

/** Compiles a template; throws DecodeTemplateError naming the line of a syntax error. */
function compile(template: string, location: JudgeErrorLocation): nunjucks.Template {
  const outcome = compilePromptTemplate(template);
  if ("problem" in outcome) {
    const { message, ...place } = outcome.problem;
    throw new DecodeTemplateError(message, { ...location, ...place });
  }
  return outcome.compiled;
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
