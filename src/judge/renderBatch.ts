import {
  BATCH_TEMPLATE,
  batchAnswerFormat,
  contentScreeningQuestion,
  judgeSystemPrompt,
  TOON_TABLE_RULE,
} from "../../prompts/evaluation/index.js";
import type { Criterion } from "../criteria/model.js";
import { fenceData } from "./fence.js";
import {
  besideValues,
  contentGuidanceFor,
  contentText,
  contextBlock,
  type JudgePrompt,
  methodParts,
} from "./render.js";
import { fillTemplate } from "./template.js";

export interface RenderBatchPromptInput {
  /** The LLM criteria to judge in one call (score, check, levels, point). */
  criteria: readonly Criterion[];
  content: unknown;
  contentType?: string;
  catalogInstructions?: string;
  /** Retrieved source chunks for all the criteria, preformatted with their sources. */
  context?: string;
  /** The question the content answers, and a reference answer, shown beside it. */
  question?: string;
  referenceAnswer?: string;
  /**
   * Ask the injection guard's question about the content in this call too: answered first, on
   * the screening line, before the table. The system prompt and the content stay as in every
   * other call of the evaluation (the prefix a server's cache keeps); the question comes last.
   */
  screenContent?: boolean;
}

/** What the `score` cell holds for a criterion, in a few words. */
function cellHint(criterion: Criterion): string {
  const method = criterion.method;
  switch (method.kind) {
    case "score":
      return method.scale.integer
        ? `a whole number from ${method.scale.min} to ${method.scale.max}`
        : `a number from ${method.scale.min} to ${method.scale.max}`;
    case "point":
      return "the coverage extent, a number from 0.0 to 1.0";
    case "check":
      return "pass or fail";
    case "levels":
      return `one level id: ${method.levels.map((l) => l.id).join(", ")}`;
    default:
      return "not judged in batch mode";
  }
}

function criterionBlock(criterion: Criterion, index: number): string {
  const { guidelines } = methodParts(criterion);
  return [
    `${index + 1}. [${criterion.id}] ${criterion.title}`,
    criterion.description,
    guidelines,
    `score cell: ${cellHint(criterion)}`,
  ].join("\n");
}

/**
 * One prompt for several criteria, answered as the TOON table `results[K]{id,score,quotes,reasoning}:`.
 * The content is fenced and neutralised as in single-criterion prompts.
 */
export function renderBatchPrompt(input: RenderBatchPromptInput): JudgePrompt {
  const ids = input.criteria.map((c) => c.id);
  const user = fillTemplate(
    BATCH_TEMPLATE,
    {
      count: String(ids.length),
      criteria: input.criteria.map(criterionBlock).join("\n\n"),
      context: contextBlock(input.context),
      beside: besideValues(input)
        .map((b) => `${b.heading}:\n${b.value}`)
        .join("\n\n"),
      content: fenceData("CONTENT", contentText(input.content)),
      screening: input.screenContent === true ? contentScreeningQuestion() : "",
      answer_format: batchAnswerFormat(ids, input.screenContent === true),
    },
    "batch template",
  );
  const system = judgeSystemPrompt({
    answerRule: TOON_TABLE_RULE,
    contentGuidance: contentGuidanceFor(input.contentType),
    catalogInstructions: input.catalogInstructions,
  });
  // fillTemplate already drops empty sections; the content and context blocks stay as given.
  return { system, user };
}
