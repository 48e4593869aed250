/**
 * The user prompt of a levels criterion with its own decode prompt: a template for untrusted
 * authors (src/criteria/promptTemplate.ts) rendered with the target's fields, the criterion and
 * its levels in scope; what it leaves out that the judge must have is appended.
 */
import { decodePromptScope } from "../criteria/decodePromptCheck.js";
import type { Criterion, LevelsMethod } from "../criteria/model.js";
import {
  type CompiledPromptTemplate,
  compilePromptTemplate,
  type PromptTemplateProblem,
  printAs,
  renderPromptTemplate,
} from "../criteria/promptTemplate.js";
import type { TemplateTimeBudget } from "../criteria/templateBudget.js";
import { isRecord } from "../untrusted/json.js";
import { JudgeError, type JudgeErrorLocation } from "./errors.js";
import { fenceData, neutraliseData } from "./fence.js";

export interface DecodePromptParts {
  criterion: Criterion;
  method: LevelsMethod;
  template: string;
  target: unknown;
  content: string;
  context: string;
  guidelines: string;
  answerFormat: string;
  rubricId?: string | undefined;
  budget?: TemplateTimeBudget | undefined;
}

/** Printing a list or an object in a template writes it as a fenced JSON data block. */
function printedAsBlock<T extends object>(value: T, label: string, raw: unknown): T {
  return printAs(value, fenceData(label, JSON.stringify(raw, null, 2) ?? "null"));
}

/** Strings neutralised; lists and objects iterable, printed as fenced JSON blocks. */
function scopeValue(value: unknown, label: string, depth = 0): unknown {
  if (typeof value === "string") return neutraliseData(value);
  if (depth > 32 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items = value.map((item, i) => scopeValue(item, `${label}[${i}]`, depth + 1));
    return printedAsBlock(items, label, value);
  }
  // Every key an own property (a key "__proto__" included), nothing inherited.
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      scopeValue(item, `${label}.${key}`, depth + 1),
    ]),
  );
  return printedAsBlock(copy, label, value);
}

function scopeOf(parts: DecodePromptParts): Record<string, unknown> {
  const fields: Record<string, unknown> = isRecord(parts.target)
    ? Object.fromEntries(
        Object.entries(parts.target).map(([key, value]) => [
          key,
          scopeValue(value, `FIELD ${key}`),
        ]),
      )
    : {};
  return {
    ...fields,
    ...decodePromptScope(parts.criterion, parts.method, {
      ...parts,
      target: scopeValue(parts.target, "CONTENT"),
    }),
  };
}

export function renderDecodePrompt(parts: DecodePromptParts): string {
  const { template } = parts;
  const location: JudgeErrorLocation = {
    criterionId: parts.criterion.id,
    source:
      parts.rubricId === undefined ? "decode_prompt" : `rubric '${parts.rubricId}' › decode_prompt`,
  };
  const compiled = compileDecodeTemplate(template, location, parts.budget);
  let user = renderDecodeTemplate(compiled, scopeOf(parts), location, parts.budget);
  const uses = (name: string) => compiled.variables.has(name);
  const fieldUsed = isRecord(parts.target) && Object.keys(parts.target).some(uses);
  if (!uses("levels") && !uses("guidelines")) user += `\n\n${parts.guidelines}`;
  if (!uses("context") && parts.context !== "") user += `\n\n${parts.context}`;
  if (!uses("content") && !uses("target") && !fieldUsed) {
    user += `\n\nContent under evaluation:\n${parts.content}`;
  }
  if (!uses("answer_format")) user += `\n\n${parts.answerFormat}`;
  return user;
}

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
