/**
 * Decode prompts as templates: Liquid with Jinja's common forms (`{{ q }}`, `{% for q in
 * questions %}`, `{% if %}…{% elif %}`, `loop.index`, filters such as `upper` and `length`),
 * rendered by the engine for untrusted authors (src/criteria/promptTemplate.ts): no function
 * calls, no file, no prototype, bounded size, steps, memory, time and output. Every failure is a
 * a PROMPT_TEMPLATE_INVALID JudgeError naming where it is.
 */
import {
  type CompiledPromptTemplate,
  compilePromptTemplate,
  MAX_RENDERED_CHARS,
  type PromptTemplateProblem,
  renderPromptTemplate,
} from "../criteria/promptTemplate.js";
import type { TemplateTimeBudget } from "../criteria/templateBudget.js";
import { JudgeError, type JudgeErrorLocation } from "./errors.js";

/** The most characters a rendered decode prompt may have. */
export const MAX_DECODE_PROMPT_CHARS = MAX_RENDERED_CHARS;

function templateError(problem: PromptTemplateProblem, location: JudgeErrorLocation): JudgeError {
  const { message, ...place } = problem;
  return new JudgeError(message, { ...location, ...place }, { code: "PROMPT_TEMPLATE_INVALID" });
}

/**
 * Compiles a template, which checks it without rendering it (its size, syntax, tags and filters);
 * throws a PROMPT_TEMPLATE_INVALID JudgeError naming the line of what is wrong.
 */
export function compileDecodeTemplate(
  template: string,
  location: JudgeErrorLocation = {},
  budget?: TemplateTimeBudget,
): CompiledPromptTemplate {
  const outcome = compilePromptTemplate(template, budget);
  if ("problem" in outcome) throw templateError(outcome.problem, location);
  return outcome.compiled;
}

/**
 * Renders a decode prompt with `scope` as its variables. Errors (syntax, a refused tag, an
 * unknown filter, a limit reached, the evaluation's `budget` spent) are PROMPT_TEMPLATE_INVALID
 * errors naming `location` and the line. Runs of blank lines are reduced to one.
 */
export function renderDecodeTemplate(
  template: string | CompiledPromptTemplate,
  scope: Readonly<Record<string, unknown>>,
  location: JudgeErrorLocation = {},
  budget?: TemplateTimeBudget,
): string {
  const compiled =
    typeof template === "string" ? compileDecodeTemplate(template, location, budget) : template;
  const outcome = renderPromptTemplate(compiled, scope, budget);
  if ("problem" in outcome) throw templateError(outcome.problem, location);
  return outcome.text.replace(/\n[ \t]*\n(?:[ \t]*\n)+/g, "\n\n").trim();
}
