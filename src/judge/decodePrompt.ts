/**
 * The user prompt of a levels criterion with its own decode prompt: the template rendered (Liquid
 * with Jinja's common forms, see decodeTemplate.ts) with the target's fields, the criterion, its
 * levels and the content in scope; then whatever the template left out that the judge must have —
 * the level list with descriptions, the source documents, the content, the answer contract —
 * appended.
 */
import type { Criterion, LevelsMethod } from "../criteria/model.js";
import { printAs } from "../criteria/promptTemplate.js";
import type { TemplateTimeBudget } from "../criteria/templateBudget.js";
import { compileDecodeTemplate, renderDecodeTemplate } from "./decodeTemplate.js";
import type { JudgeErrorLocation } from "./errors.js";
import { fenceData, neutraliseData } from "./fence.js";

export interface DecodePromptParts {
  criterion: Criterion;
  method: LevelsMethod;
  template: string;
  /** The target as it was given (text or a JSON-compatible value). */
  target: unknown;
  /** The target as the fenced CONTENT block. */
  content: string;
  /** The source documents block, "" when there is none. */
  context: string;
  /** The level list with descriptions and indicators. */
  guidelines: string;
  answerFormat: string;
  /** Names the rubric in error messages. */
  rubricId?: string | undefined;
  /** The evaluation's time budget for its templates, shared by every criterion's render. */
  budget?: TemplateTimeBudget | undefined;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Printing a list or an object in a template writes it as a fenced JSON data block. */
function printedAsBlock<T extends object>(value: T, label: string, raw: unknown): T {
  return printAs(value, fenceData(label, JSON.stringify(raw, null, 2) ?? "null"));
}

/**
 * A value of the target for the template: strings neutralised (they cannot close or imitate a
 * data fence), lists and objects iterable as usual and printed as fenced JSON blocks.
 */
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
  const fields: Record<string, unknown> = isPlainRecord(parts.target)
    ? Object.fromEntries(
        Object.entries(parts.target).map(([key, value]) => [
          key,
          scopeValue(value, `FIELD ${key}`),
        ]),
      )
    : {};
  const { criterion } = parts;
  const levels = [...parts.method.levels].sort((a, b) => a.score - b.score);
  return {
    ...fields,
    content: parts.content,
    target: scopeValue(parts.target, "CONTENT"),
    criterion: {
      id: criterion.id,
      title: criterion.title,
      name: criterion.title,
      description: criterion.description,
      weight: criterion.weight,
    },
    levels: levels.map((level) => ({ ...level, name: level.label })),
    context: parts.context,
    guidelines: parts.guidelines,
    answer_format: parts.answerFormat,
    criterion_title: criterion.title,
    criterion_description: criterion.description,
  };
}

/**
 * Renders a decode prompt. Throws a PROMPT_TEMPLATE_INVALID JudgeError (rubric, criterion, line) when the template
 * cannot be rendered.
 */
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
  const fieldUsed = isPlainRecord(parts.target) && Object.keys(parts.target).some(uses);
  if (!uses("levels") && !uses("guidelines")) user += `\n\n${parts.guidelines}`;
  if (!uses("context") && parts.context !== "") user += `\n\n${parts.context}`;
  if (!uses("content") && !uses("target") && !fieldUsed) {
    user += `\n\nContent under evaluation:\n${parts.content}`;
  }
  if (!uses("answer_format")) user += `\n\n${parts.answerFormat}`;
  return user;
}
