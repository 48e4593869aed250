/** Decode prompts as templates for untrusted authors (src/criteria/promptTemplate.ts); failures are PROMPT_TEMPLATE_INVALID. */
import {
  type CompiledPromptTemplate,
  compilePromptTemplate,
  MAX_RENDERED_CHARS,
  type PromptTemplateProblem,
  renderPromptTemplate,
} from "../criteria/promptTemplate.js";
import type { TemplateTimeBudget } from "../criteria/templateBudget.js";
import { JudgeError, type JudgeErrorLocation } from "./errors.js";

export const MAX_DECODE_PROMPT_CHARS = MAX_RENDERED_CHARS;

function templateError(problem: PromptTemplateProblem, location: JudgeErrorLocation): JudgeError {
  const { message, ...place } = problem;
  return new JudgeError(message, { ...location, ...place }, { code: "PROMPT_TEMPLATE_INVALID" });
}

/** Checks a template without rendering it. */
export function compileDecodeTemplate(
  template: string,
  location: JudgeErrorLocation = {},
  budget?: TemplateTimeBudget,
): CompiledPromptTemplate {
  const outcome = compilePromptTemplate(template, budget);
  if ("problem" in outcome) throw templateError(outcome.problem, location);
  return outcome.compiled;
}

/** Renders with `scope` as the variables; runs of blank lines are reduced to one. */
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
