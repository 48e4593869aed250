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
import { type DecodePromptParts, renderDecodePrompt } from "./decodePrompt.js";
import { promptInvalid, UnjudgedMethodError } from "./errors.js";
import { fenceData } from "./fence.js";
import { fillTemplate, placeholdersOf } from "./template.js";

/** The two messages sent to the judge. */
export interface JudgePrompt {
  system: string;
  user: string;
}

export interface RenderJudgePromptInput {
  criterion: Criterion;
  /** The content under evaluation: text, or a JSON-compatible value (written as indented JSON). */
  content: unknown;
  /** research, budget, connection_pairs, … — adds that content type's guidance. */
  contentType?: string;
  /** The catalog's instructions for the judge. */
  catalogInstructions?: string;
  /** Retrieved source chunks, preformatted with their sources; "" when retrieval found nothing. */
  context?: string;
  /** The question the content answers, shown beside it (fenced). */
  question?: string;
  /** A reference answer, shown beside the content (fenced). */
  referenceAnswer?: string;
  /**
   * A caller's user-prompt template (`evaluationPrompt`) with the placeholders
   * {{content}}, {{criterion_title}}, {{criterion_description}}, {{guidelines}}, {{context}},
   * {{answer_format}}, {{question}} and {{reference_answer}} when those are given, and, when the
   * content is an object, one per top-level field.
   */
  override?: string;
  /** The catalog (rubric) the criterion belongs to, named in template errors. */
  catalogId?: string;
  /** Ask score and point criteria for hits and misses (default true). */
  answerLists?: boolean;
  /** The evaluation's template time budget. */ budget?: DecodePromptParts["budget"];
}

/** The placeholders every criterion template may use. */
const JUDGE_PLACEHOLDERS = [
  "content",
  "criterion_title",
  "criterion_description",
  "guidelines",
  "context",
  "answer_format",
] as const;

/** A method's template, the guidelines the judge gets, and its answer contract. */
export interface MethodParts {
  template: string;
  guidelines: string;
  answerFormat: string;
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
      };
    case "check":
      return {
        template: CHECK_TEMPLATE,
        guidelines: checkGuidelines({
          expectedOutcome: method.expectedOutcome,
          knockout: criterion.knockout,
        }),
        answerFormat: checkAnswerFormat(),
      };
    case "levels":
      return {
        template: LEVELS_TEMPLATE,
        guidelines: levelsGuidelines(method.levels),
        answerFormat: levelsAnswerFormat(
          [...method.levels].sort((a, b) => a.score - b.score).map((l) => l.id),
        ),
      };
    case "point":
      return {
        template: POINT_TEMPLATE,
        guidelines: pointGuidelines(
          method.text,
          method.prompt && fenceData("PROMPT", method.prompt),
        ),
        answerFormat: scoreAnswerFormat(UNIT_SCALE, lists),
      };
    default:
      throw new UnjudgedMethodError(method.kind, { criterionId: criterion.id, source: "method" });
  }
}

/** Text content as is; any other value as indented JSON. */
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

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The fields of object content that the template uses as placeholders, each its own fenced data
 * block (a levels rubric's decode prompt may name fields of the target: {{questions}}).
 */
function fieldValues(
  content: unknown,
  used: ReadonlySet<string>,
  criterionId: string,
): Record<string, string> {
  const values: Record<string, string> = {};
  if (!isPlainRecord(content)) return values;
  for (const [key, value] of Object.entries(content)) {
    if (!used.has(key) || (JUDGE_PLACEHOLDERS as readonly string[]).includes(key)) continue;
    values[key] = fenceData(`FIELD ${key}`, contentText(value ?? null, criterionId));
  }
  return values;
}

/**
 * The question and the reference answer the content is judged beside, as placeholder values
 * (fenced; "(none given)" when blank), with the heading each gets when a template does not place
 * it; a value not given is absent, so a content field of that name still fills it.
 */
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

/** The content type's guidance for the system prompt, if any. */
export function contentGuidanceFor(contentType: string | undefined): string | undefined {
  let contentGuidance: string | undefined;
  if (contentType !== undefined && contentType.trim() !== "") {
    const prompt = contentTypePrompt(contentType);
    contentGuidance =
      prompt === undefined
        ? `The content under evaluation is of type "${contentType.trim()}".`
        : prompt.guidance;
  }
  return contentGuidance;
}

function systemFor(contentType: string | undefined, catalogInstructions?: string): string {
  return judgeSystemPrompt({
    contentGuidance: contentGuidanceFor(contentType),
    catalogInstructions,
  });
}

/**
 * The system and user prompt for one criterion. The template is the caller's `override`, else the
 * criterion's own `decodePrompt` (levels; a template, see decodePrompt.ts), else the method's. The
 * content is fenced and neutralised, the source documents and the content are appended when the
 * template does not place them, and the answer contract is appended when it has no
 * {{answer_format}}: an override can change the instructions but never the contract.
 */
export function renderJudgePrompt(input: RenderJudgePromptInput): JudgePrompt {
  const { criterion } = input;
  const parts = methodParts(criterion, { lists: input.answerLists });
  const method = criterion.method;
  const content = fenceData("CONTENT", contentText(input.content, criterion.id));
  const context = contextBlock(input.context);
  const system = systemFor(input.contentType, input.catalogInstructions);
  const beside = besideValues(input);
  const besideBlocks = (used: ReadonlySet<string>) =>
    beside.flatMap((b) => (used.has(b.name) ? [] : [`\n\n${b.heading}:\n${b.value}`])).join("");
  if (method.kind === "levels" && method.decodePrompt !== undefined && !input.override) {
    // A levels criterion's own decode prompt is a template (LiquidJS, with the Jinja forms authors use).
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
