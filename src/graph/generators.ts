import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import {
  CONNECTION_PAIRS_TEMPLATE,
  JSON_OUTPUT_RULE,
  RESEARCH_TEMPLATE,
  revisionBlock,
  SECTION_TEMPLATE,
  SOLUTION_TEMPLATE,
  WRITER_SYSTEM,
} from "../../prompts/generation/index.js";
import { resolveJudgeModel } from "../engine/evaluateContent.js";
import { fenceData } from "../judge/fence.js";
import { scanJsonObjects } from "../judge/jsonObjectScan.js";
import { fillTemplate } from "../judge/template.js";
import type { JudgeModel, ModelSource } from "../llm/chatModel.js";
import { isModelAbortedError } from "../llm/errors.js";
import { invokeJudge } from "../llm/invoke.js";
import { isRecord } from "../untrusted/json.js";
import { GraphError } from "./errors.js";
import type { GenerateNode } from "./evaluationStage.js";
import { describeFailure, type FailedReview, failedStageUpdate } from "./failure.js";
import { ACCEPTED_STATUSES } from "./model.js";
import { editableText } from "./reviewAnswer.js";
import { stageStatus } from "./reviewDecisions.js";
import type { StageDefinition } from "./stages.js";
import { type OverallProposalStateType, type ProposalUpdate, runContext } from "./state.js";
import { mergeStateUpdates, parseStatePath, readStatePath, statePathUpdate } from "./statePath.js";
import {
  CONNECTION_PAIRS_CONTENT,
  RESEARCH_CONTENT,
  SOLUTION_CONTENT,
  type StructuredContentType,
  withoutEmpty,
} from "./structuredContent.js";

export interface GeneratorOptions {
  /** The writer model (default: the run context's model, else EVALGATE_MODEL on Ollama). */
  model?: ModelSource | JudgeModel;
  timeoutMs?: number;
}

const PairsAnswerSchema = z.object({ pairs: writerContentSchema(CONNECTION_PAIRS_CONTENT) });

function block(label: string, value: unknown): string {
  if (value === undefined || value === null || value === "") return "";
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return `${label}:\n${fenceData(label.toUpperCase(), text)}`;
}

function parseJsonAnswer<T>(text: string, schema: z.ZodType<T>, what: string): T {
  const scan = scanJsonObjects(text);
  const first = scan.objects[0];
  if (first === undefined) {
    throw new GraphError(
      "GENERATION_OUTPUT_INVALID",
      `the ${what} answer has no JSON object${scan.truncated ? " (it was cut off)" : ""}`,
    );
  }
  const parsed = schema.safeParse(first.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GraphError(
      "GENERATION_OUTPUT_INVALID",
      `the ${what} answer does not fit: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

function sectionText(text: string): string {
  const body = text
    .trim()
    .replace(/^```[a-z]*\n([\s\S]*?)\n```$/i, "$1")
    .trim();
  if (body === "") throw new GraphError("GENERATION_OUTPUT_INVALID", "the section answer is empty");
  return body;
}

interface StagePrompt {
  user: string;
  toContent(answer: string): unknown;
}

function earlierSections(
  state: OverallProposalStateType,
  stages: readonly StageDefinition[],
  stage: StageDefinition,
): string {
  const index = stages.findIndex((s) => s.id === stage.id);
  const parts = stages
    .slice(0, Math.max(index, 0))
    .filter((s) => s.contentPath.startsWith("sections."))
    .map((s) => ({ s, content: state.sections[s.id]?.content }))
    .filter(
      ({ s, content }) => content !== undefined && ACCEPTED_STATUSES.has(stageStatus(state, s)),
    )
    .map(({ s, content }) => `## ${s.title}\n${content}`);
  return parts.length === 0 ? "" : block("Earlier sections of the proposal", parts.join("\n\n"));
}

function promptFor(
  state: OverallProposalStateType,
  stage: StageDefinition,
  stages: readonly StageDefinition[],
  description: string | undefined,
): StagePrompt {
  const previous = readStatePath(state, parseStatePath(stage.contentPath));
  const revising = stageStatus(state, stage) === "revision_requested";
  const revision = revising
    ? revisionBlock(state.revisionFeedback[stage.id], editableText(previous))
    : "";
  const common = {
    rfp: block("Request for proposals", state.rfpDocument),
    applicant: block("Applicant information", state.applicantInput),
    research: block("Research on the funder", state.researchResults),
    solution: block("Solution sought", state.solutionSoughtResults),
    connections: block("Connection pairs", state.connectionPairs),
    revision,
    json_rule: JSON_OUTPUT_RULE,
  };
  const fill = (template: string, values: Record<string, string>) =>
    fillTemplate(template, values, `${stage.id} generation prompt`).replace(/\n{3,}/g, "\n\n");
  switch (stage.id) {
    case "research":
      return {
        user: fill(RESEARCH_TEMPLATE, common),
        toContent: (a) => parseJsonAnswer(a, writerContentSchema(RESEARCH_CONTENT), "research"),
      };
    case "solution":
      return {
        user: fill(SOLUTION_TEMPLATE, common),
        toContent: (a) =>
          parseJsonAnswer(a, writerContentSchema(SOLUTION_CONTENT), "solution sought"),
      };
    case "connection_pairs":
      return {
        user: fill(CONNECTION_PAIRS_TEMPLATE, common),
        toContent: (a) => parseJsonAnswer(a, PairsAnswerSchema, "connection pairs").pairs,
      };
    default:
      return {
        user: fill(SECTION_TEMPLATE, {
          ...common,
          section_title: stage.title,
          section_description: description ?? `the ${stage.title} section of the proposal`,
          earlier_sections: earlierSections(state, stages, stage),
        }),
        toContent: sectionText,
      };
  }
}

/** The feedback the new version answers, cleared when it was written for another reason. */
function answeredFeedback(state: OverallProposalStateType, stage: StageDefinition): ProposalUpdate {
  const revising = stageStatus(state, stage) === "revision_requested";
  const kept = state.revisionFeedback[stage.id];
  return revising || kept === undefined || kept === ""
    ? {}
    : { revisionFeedback: { [stage.id]: "" } };
}

/** A generator node: writes a stage's content with a model call; a failure gives a retryable review. */
export function createGenerator(
  stage: StageDefinition,
  stages: readonly StageDefinition[],
  options: GeneratorOptions & { description?: string } = {},
): GenerateNode {
  const statusPath = parseStatePath(stage.statusField);
  const contentPath = parseStatePath(stage.contentPath);
  return async (
    state: OverallProposalStateType,
    config?: LangGraphRunnableConfig,
  ): Promise<ProposalUpdate> => {
    config?.writer?.({ type: "status", contentId: stage.id, status: "running" });
    try {
      const prompt = promptFor(state, stage, stages, options.description);
      const model = resolveJudgeModel(options.model ?? runContext(config).model, {
        timeoutMs: options.timeoutMs,
      });
      const answer = await invokeJudge(
        model,
        [
          ["system", WRITER_SYSTEM],
          ["human", prompt.user],
        ],
        { signal: config?.signal },
      );
      const content = prompt.toContent(answer.text);
      const sectionExtras: ProposalUpdate =
        contentPath.kind === "section"
          ? {
              sections: {
                [contentPath.sectionId]: {
                  title: stage.title,
                  lastUpdated: new Date().toISOString(),
                },
              },
            }
          : {};
      return mergeStateUpdates(
        statePathUpdate(contentPath, content),
        statePathUpdate(statusPath, "completed"),
        sectionExtras,
        answeredFeedback(state, stage),
        { messages: [new AIMessage(`${stage.title} written (${answer.model}).`)] },
      );
    } catch (error) {
      if (isModelAbortedError(error)) throw error;
      const failure = describeFailure(error, `generate ${stage.id}`, stage.title, "generation");
      const review: FailedReview = {
        type: "generation_error",
        contentType: stage.contentType,
        contentId: stage.id,
        evaluation: null,
        actions: ["retry", "edit"],
        title: `${stage.title}: Generation Failed`,
      };
      return failedStageUpdate(statusPath, review, failure);
    }
  };
}

/**
 * A writer's answer read leniently (a number as its text, one text for a list as a list of one)
 * and then held to the content's schema; a reviewer's edit gets no such reading.
 */
const asText = (value: unknown) =>
  typeof value === "number" || typeof value === "boolean" ? String(value) : value;

function writerObject(type: StructuredContentType, value: unknown): unknown {
  if (!isRecord(value)) return value;
  const kinds = new Map(type.fields.map((f) => [f.key, f.kind]));
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(withoutEmpty(value))) {
    const kind = kinds.get(key);
    if (kind === "text") out[key] = asText(raw);
    else if (kind === "list") {
      const items = Array.isArray(raw) ? raw : [raw];
      out[key] = items.map(asText);
    } else out[key] = raw;
  }
  return out;
}

/** What a writer's answer must be: the type's schema, after the lenient reading above. */
export function writerContentSchema(type: StructuredContentType) {
  return z.preprocess((value) => {
    if (type.shape === "object") return writerObject(type, value);
    return Array.isArray(value) ? value.map((item) => writerObject(type, item)) : value;
  }, type.schema);
}
