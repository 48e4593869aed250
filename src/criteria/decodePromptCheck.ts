/**
 * The meta-rubric's check of decode prompts: each compiles, and renders a sample within the
 * bounds of a render (found at load, not mid-run), all sharing one time budget.
 */
import type { Catalog, Criterion, LevelsMethod } from "./model.js";
import {
  compilePromptTemplate,
  createTemplateTimeBudget,
  type PromptTemplateProblem,
  renderPromptTemplate,
  type TemplateTimeBudget,
} from "./promptTemplate.js";
import { criterionPath, type ValidationFinding } from "./validationFinding.js";

const SAMPLE_CONTENT =
  "Sample content: the proposal explains its aims, its plan and its budget in a few sentences.";

export interface DecodePromptValues {
  content: string;
  target: unknown;
  context: string;
  guidelines: string;
  answerFormat: string;
}

/** What a decode prompt has in scope besides the target's own fields (the judge adds those). */
export function decodePromptScope(
  criterion: Criterion,
  method: LevelsMethod,
  values: DecodePromptValues,
): Record<string, unknown> {
  const levels = [...method.levels].sort((a, b) => a.score - b.score);
  return {
    content: values.content,
    target: values.target,
    criterion: {
      id: criterion.id,
      title: criterion.title,
      name: criterion.title,
      description: criterion.description,
      weight: criterion.weight,
    },
    levels: levels.map((level) => ({ ...level, name: level.label })),
    context: values.context,
    guidelines: values.guidelines,
    answer_format: values.answerFormat,
    criterion_title: criterion.title,
    criterion_description: criterion.description,
  };
}

function sampleScope(criterion: Criterion, method: LevelsMethod): Record<string, unknown> {
  const levels = [...method.levels].sort((a, b) => a.score - b.score);
  return decodePromptScope(criterion, method, {
    content: SAMPLE_CONTENT,
    target: SAMPLE_CONTENT,
    context: "",
    guidelines: levels.map((l) => `- ${l.id}: ${l.label}`).join("\n"),
    answerFormat: 'Answer with JSON: {"reasoning": "…", "level_id": "…"}',
  });
}

/** A render error of another kind is left to the evaluation, where the real values are. */
function decodePromptProblem(
  criterion: Criterion,
  method: LevelsMethod,
  template: string,
  budget: TemplateTimeBudget,
): PromptTemplateProblem | undefined {
  const compiled = compilePromptTemplate(template);
  if ("problem" in compiled) return compiled.problem;
  const rendered = renderPromptTemplate(compiled.compiled, sampleScope(criterion, method), budget);
  if (!("problem" in rendered) || rendered.problem.limitReached !== true) return undefined;
  return { ...rendered.problem, message: `on a sample render, ${rendered.problem.message}` };
}

function placeOf(problem: PromptTemplateProblem): string {
  const { line, column } = problem;
  if (line === undefined) return "";
  return ` (template line ${line}${column === undefined ? "" : `, column ${column}`})`;
}

export function checkDecodePrompts(catalog: Catalog): ValidationFinding[] {
  const budget = createTemplateTimeBudget();
  return catalog.criteria.flatMap((c): ValidationFinding[] => {
    if (c.method.kind !== "levels" || c.method.decodePrompt === undefined) return [];
    const problem = decodePromptProblem(c, c.method, c.method.decodePrompt, budget);
    if (problem === undefined) return [];
    return [
      {
        severity: "error",
        check: "prompt_template",
        message: `criterion ${JSON.stringify(c.id)}: its decode prompt cannot be used: ${problem.message}${placeOf(problem)}`,
        path: criterionPath(catalog, c, "method", "decodePrompt"),
      },
    ];
  });
}
