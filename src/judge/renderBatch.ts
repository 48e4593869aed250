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
  criteria: readonly Criterion[];
  content: unknown;
  contentType?: string;
  catalogInstructions?: string;
  context?: string;
  question?: string;
  referenceAnswer?: string;
  /** Ask the guard's question too, last, so the prefix a server's cache keeps is unchanged. */
  screenContent?: boolean;
}

function criterionBlock(criterion: Criterion, index: number): string {
  const { guidelines, cellHint } = methodParts(criterion);
  return [
    `${index + 1}. [${criterion.id}] ${criterion.title}`,
    criterion.description,
    guidelines,
    `score cell: ${cellHint}`,
  ].join("\n");
}

/** One prompt for several criteria, answered as the TOON table `results[K]{id,score,quotes,reasoning}:`. */
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
  return { system, user };
}
