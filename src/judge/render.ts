import {
  CHECK_TEMPLATE,
  checkAnswerFormat,
  checkGuidelines,
  contentTypePrompt,
  judgeSystemPrompt,
  LEVELS_TEMPLATE,
  levelsAnswerFormat,
  levelsGuidelines,
  POINT_TEMPLATE,
  pointGuidelines,
  SCORE_TEMPLATE,
  scoreAnswerFormat,
  scoreGuidelines,
} from "../../prompts/evaluation/index.js";
import { type Criterion, UNIT_SCALE } from "../criteria/model.js";
import { isRecord } from "../untrusted/json.js";
import { type DecodePromptParts, renderDecodePrompt } from "./decodePrompt.js";
import { promptInvalid, UnjudgedMethodError } from "./errors.js";
import { fenceData } from "./fence.js";
import { fillTemplate, placeholdersOf } from "./template.js";

export interface JudgePrompt {
  system: string;
  user: string;
}

export interface RenderJudgePromptInput {
  criterion: Criterion;
  /** Text, or a JSON-compatible value (written as indented JSON). */
  content: unknown;
  contentType?: string;
  catalogInstructions?: string;
  /** "" when retrieval found nothing. */
  context?: string;
  question?: string;
  referenceAnswer?: string;
  /** A caller's user-prompt template (`evaluationPrompt`); object content adds one placeholder per field. */
  override?: string;
  catalogId?: string;
  /** Ask score and point criteria for hits and misses (default true). */
  answerLists?: boolean;
  budget?: DecodePromptParts["budget"];
}

const JUDGE_PLACEHOLDERS = [
  "content",
  "criterion_title",
  "criterion_description",
  "guidelines",
  "context",
  "answer_format",
] as const;

export interface MethodParts {
  template: string;
  guidelines: string;
  answerFormat: string;
  /** What a batch table's score cell holds. */
  cellHint: string;
}

export function methodParts(criterion: Criterion, options: { lists?: boolean } = {}): MethodParts {
  const method = criterion.method;
  const lists = { lists: options.lists ?? true };
  switch (method.kind) {
    case "score":
      return {
        template: SCORE_TEMPLATE,
        guidelines: scoreGuidelines(method.scale, method.guidelines),
        answerFormat: scoreAnswerFormat(method.scale, lists),
        cellHint: `a${method.scale.integer ? " whole" : ""} number from ${method.scale.min} to ${method.scale.max}`,
      };
    case "check":
      return {
        template: CHECK_TEMPLATE,
        guidelines: checkGuidelines({
          expectedOutcome: method.expectedOutcome,
          knockout: criterion.knockout,
        }),
        answerFormat: checkAnswerFormat(),
        cellHint: "pass or fail",
      };
    case "levels":
      return {
        template: LEVELS_TEMPLATE,
        guidelines: levelsGuidelines(method.levels),
        answerFormat: levelsAnswerFormat(
          [...method.levels].sort((a, b) => a.score - b.score).map((l) => l.id),
        ),
        cellHint: `one level id: ${method.levels.map((l) => l.id).join(", ")}`,
      };
    case "point":
      return {
        template: POINT_TEMPLATE,
        guidelines: pointGuidelines(
          method.text,
          method.prompt && fenceData("PROMPT", method.prompt),
        ),
        answerFormat: scoreAnswerFormat(UNIT_SCALE, lists),
        cellHint: "the coverage extent, a number from 0.0 to 1.0",
      };
    default:
      throw new UnjudgedMethodError(method.kind, { criterionId: criterion.id, source: "method" });
  }
}

export function contentText(content: unknown, criterionId?: string): string {
  if (typeof content === "string") return content;
  const json = content === undefined ? undefined : JSON.stringify(content, null, 2);
  if (json === undefined) {
    throw promptInvalid("content is missing or cannot be written as JSON", {
      criterionId,
      source: "content",
    });
  }
  return json;
}

/** The fields of object content the template uses as placeholders, each its own fenced block. */
function fieldValues(
  content: unknown,
  used: ReadonlySet<string>,
  criterionId: string,
): Record<string, string> {
  const values: Record<string, string> = {};
  if (!isRecord(content)) return values;
  for (const [key, value] of Object.entries(content)) {
    if (!used.has(key) || (JUDGE_PLACEHOLDERS as readonly string[]).includes(key)) continue;
    values[key] = fenceData(`FIELD ${key}`, contentText(value ?? null, criterionId));
  }
  return values;
}

/** The question and reference answer as placeholder values; one not given is absent, so a content field of that name still fills it. */
export function besideValues(input: {
  question?: string;
  referenceAnswer?: string;
}): Array<{ name: string; heading: string; value: string }> {
  const given = [
    ["question", "The content answers this question", "QUESTION", input.question],
    ["reference_answer", "Reference answer", "REFERENCE ANSWER", input.referenceAnswer],
  ] as const;
  return given.flatMap(([name, heading, label, text]) =>
    text === undefined
      ? []
      : [{ name, heading, value: text.trim() === "" ? "(none given)" : fenceData(label, text) }],
  );
}

export function contextBlock(context: string | undefined): string {
  if (context === undefined) return "";
  if (context.trim() === "") {
    return "Source documents: none were found for this criterion. Judge from the content alone.";
  }
  return `Source documents (cite them by source in your reasoning):\n${fenceData("SOURCE DOCUMENTS", context)}`;
}

export function contentGuidanceFor(contentType: string | undefined): string | undefined {
  if (contentType === undefined || contentType.trim() === "") return undefined;
  return (
    contentTypePrompt(contentType)?.guidance ??
    `The content under evaluation is of type "${contentType.trim()}".`
  );
}

/**
 * The prompts for one criterion, from the caller's `override`, else a levels criterion's
 * `decodePrompt`, else the method's template. What the template does not place is appended: an
 * override can change the instructions but never the answer contract.
 */
export function renderJudgePrompt(input: RenderJudgePromptInput): JudgePrompt {
  const { criterion } = input;
  const parts = methodParts(criterion, { lists: input.answerLists });
  const method = criterion.method;
  const content = fenceData("CONTENT", contentText(input.content, criterion.id));
  const context = contextBlock(input.context);
  const system = judgeSystemPrompt({
    contentGuidance: contentGuidanceFor(input.contentType),
    catalogInstructions: input.catalogInstructions,
  });
  const beside = besideValues(input);
  const besideBlocks = (used: ReadonlySet<string>) =>
    beside.flatMap((b) => (used.has(b.name) ? [] : [`\n\n${b.heading}:\n${b.value}`])).join("");
  if (method.kind === "levels" && method.decodePrompt !== undefined && !input.override) {
    const { guidelines, answerFormat } = parts;
    const [template, target, rubricId] = [method.decodePrompt, input.content, input.catalogId];
    const decode = { criterion, method, template, target, content, context, guidelines, rubricId };
    return {
      system,
      user:
        renderDecodePrompt({ ...decode, answerFormat, budget: input.budget }) +
        besideBlocks(new Set()),
    };
  }
  const template = input.override ?? parts.template;
  const source = input.override === undefined ? `${method.kind} template` : "override";

  const used = new Set(placeholdersOf(template).map((p) => p.name));
  const fields = fieldValues(input.content, used, criterion.id);
  const values: Record<string, string> = {
    ...fields,
    ...Object.fromEntries(beside.map((b) => [b.name, b.value])),
    content,
    criterion_title: criterion.title,
    criterion_description: criterion.description,
    guidelines: parts.guidelines,
    context,
    answer_format: parts.answerFormat,
  };

  let user = fillTemplate(template, values, source, criterion.id);
  const fieldUsed = Object.keys(fields).length > 0;
  if (!used.has("context") && context !== "") user += `\n\n${context}`;
  user += besideBlocks(used);
  if (!used.has("content") && !fieldUsed) user += `\n\nContent under evaluation:\n${content}`;
  if (!used.has("answer_format")) user += `\n\n${parts.answerFormat}`;

  return { system, user };
}
