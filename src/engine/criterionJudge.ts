import type { BaseMessageLike } from "@langchain/core/messages";
import { reasoningRepairPrompt } from "../../prompts/evaluation/index.js";
import { chunkDocuments } from "../context/chunk.js";
import { contextForCriterion, createBm25Retriever, formatContext } from "../context/retrieval.js";
import type { RankedChunk, Retriever, SourceDocument } from "../context/types.js";
import type { Criterion, Scale } from "../criteria/model.js";
import { type JudgeAnswer, toOutcome } from "../judge/answer.js";
import { answerJsonSchema } from "../judge/answerSchema.js";
import { isDecodeTemplateError } from "../judge/errors.js";
import { withFewShotBlock } from "../judge/fewShot.js";
import { ASKED_AGAIN_NOTE, lacksReasoning, parseJudgeResponse } from "../judge/parse.js";
import {
  type JudgePrompt,
  methodParts,
  type RenderJudgePromptInput,
  renderJudgePrompt,
} from "../judge/render.js";
import { weightedOutcome } from "../judge/weightedScore.js";
import type { ModelCallError } from "../llm/errors.js";
import { notEvaluatedOutcome } from "../scoring/criterionResult.js";
import type { CriterionOutcome } from "../scoring/result.js";
import { judgeCallError } from "./errors.js";
import type { FewShotPlan } from "./fewShotExamples.js";
import type { JudgeCall, JudgeCallAnswer, JudgeSession } from "./judgeSession.js";

/** Per-criterion context: `undefined` without source documents, `""` when none bears on it. */
export interface ContextProvider {
  contextFor(criterion: Criterion): Promise<string | undefined>;
  contextForAll(criteria: readonly Criterion[]): Promise<string | undefined>;
}

export function createContextProvider(
  input: { documents?: readonly SourceDocument[]; retriever?: Retriever; context?: string },
  k: number,
): ContextProvider {
  const { context } = input;
  if (context !== undefined) {
    return { contextFor: async () => context, contextForAll: async () => context };
  }
  const { documents } = input;
  const found =
    input.retriever ??
    (documents === undefined ? undefined : createBm25Retriever(chunkDocuments([...documents])));
  if (found === undefined) {
    return { contextFor: async () => undefined, contextForAll: async () => undefined };
  }
  return {
    async contextFor(criterion) {
      return formatContext(await contextForCriterion(found, criterion, k));
    },
    async contextForAll(criteria) {
      const seen = new Map<string, RankedChunk>();
      for (const criterion of criteria) {
        for (const ranked of await contextForCriterion(found, criterion, k)) {
          if (!seen.has(ranked.chunk.id)) seen.set(ranked.chunk.id, ranked);
        }
      }
      return formatContext([...seen.values()]);
    },
  };
}

export interface JudgedCriterion {
  outcome: CriterionOutcome;
  raw?: string;
  /** Corrections the parser made (score clamped, level read from a label, …). */
  notes: string[];
  /** Set when the model could not be called at all (not when its answer was unusable). */
  modelError?: ModelCallError;
  called: boolean;
  /** A panel's criterion: each member's quotes, by member (the outcome itself then has none). */
  memberQuotes?: Array<{ judge: string; text: string }>;
  memberCacheHits?: number;
  cached?: boolean;
  /** Label ids of the few-shot examples the prompt carried. */
  examples?: readonly string[];
}

export const INSUFFICIENT_INFORMATION = "Insufficient Information";

export interface CriterionJudgeContext {
  session: JudgeSession;
  context: ContextProvider;
  /** What every prompt shows beside the criterion and its context (a batch's too). */
  prompt: Omit<RenderJudgePromptInput, "criterion" | "context">;
  /** The content is empty: the source documents are the only evidence. */
  contentIsEmpty: boolean;
  structuredOutput?: boolean;
  fewShot?: FewShotPlan;
  /** Score criteria ask for token log-probabilities and bypass the cache (a kept answer has none). */
  weightedScores?: boolean;
}

function weightingScale(ctx: CriterionJudgeContext, criterion: Criterion): Scale | undefined {
  if (ctx.weightedScores !== true || criterion.method.kind !== "score") return undefined;
  return criterion.method.scale;
}

function outcomeOf(answer: JudgeAnswer, reply: JudgeCallAnswer, scale: Scale | undefined) {
  const outcome = toOutcome(answer);
  if (scale === undefined) return outcome;
  const weighting = reply.scoreWeighting ?? {
    scoreMethod: "plain" as const,
    reason: "the answer carried no score weighting",
  };
  return weightedOutcome(outcome, weighting, scale);
}

/** No passage and no content: "Insufficient Information" without a call — never a zero. */
function insufficientInformation(criterion: Criterion): JudgedCriterion {
  return {
    outcome: notEvaluatedOutcome(
      `${INSUFFICIENT_INFORMATION}: no source passage bears on "${criterion.title}"`,
      INSUFFICIENT_INFORMATION,
    ),
    notes: [],
    called: false,
  };
}

/** The context for one criterion, or the Insufficient Information answer when there is none. */
export async function contextOrInsufficient(
  ctx: CriterionJudgeContext,
  criterion: Criterion,
): Promise<{ context: string | undefined } | { insufficient: JudgedCriterion }> {
  const context = await ctx.context.contextFor(criterion);
  if (ctx.contentIsEmpty && (context === undefined || context.trim() === "")) {
    return { insufficient: insufficientInformation(criterion) };
  }
  return { context };
}

/** The criterion's prompt with its few-shot examples; an unrenderable decode prompt is answered. */
function criterionPrompt(
  ctx: CriterionJudgeContext,
  criterion: Criterion,
  context: string | undefined,
): { prompt: JudgePrompt; examples?: string[] } | { unrendered: JudgedCriterion } {
  let prompt: JudgePrompt;
  try {
    prompt = renderJudgePrompt({ ...ctx.prompt, criterion, context });
  } catch (error) {
    if (!isDecodeTemplateError(error)) throw error;
    return {
      unrendered: { outcome: notEvaluatedOutcome(error.message), notes: [], called: false },
    };
  }
  const selection = ctx.fewShot?.get(criterion.id);
  if (selection === undefined) return { prompt };
  const { answerFormat } = methodParts(criterion, { lists: ctx.prompt.answerLists });
  const user = withFewShotBlock(prompt.user, selection.block, answerFormat);
  return { prompt: { ...prompt, user }, examples: selection.examples.map((e) => e.labelId) };
}

/** Asks the judge about one criterion, parses the answer fail-closed, and never throws a model error. */
export async function judgeCriterion(
  ctx: CriterionJudgeContext,
  criterion: Criterion,
): Promise<JudgedCriterion> {
  const found = await contextOrInsufficient(ctx, criterion);
  if ("insufficient" in found) return found.insufficient;
  const built = criterionPrompt(ctx, criterion, found.context);
  if ("unrendered" in built) return built.unrendered;
  const { prompt, examples } = built;
  const scale = weightingScale(ctx, criterion);
  const call: JudgeCall & { usable: (text: string) => boolean } = {
    purpose: "criterion",
    criterionIds: [criterion.id],
    system: prompt.system,
    user: prompt.user,
    ...(examples === undefined ? {} : { examples }),
    format:
      ctx.structuredOutput === false
        ? undefined
        : answerJsonSchema(criterion, { lists: ctx.prompt.answerLists }),
    ...(scale === undefined ? {} : { weightOnScale: scale }),
    usable: (text: string) => parseJudgeResponse(text, criterion).usable,
  };
  const kept = scale === undefined ? await ctx.session.recall(call, call.usable) : undefined;
  if (kept !== undefined) {
    const answer = parseJudgeResponse(kept, criterion);
    const outcome = toOutcome(answer);
    return { outcome, raw: kept, notes: answer.notes, called: false, cached: true, examples };
  }
  const ask = (asked: JudgeCall) =>
    ctx.session.callForAnswer(asked).catch((error: unknown) => modelFailure(error));
  let reply = await ask(call);
  if ("outcome" in reply) return reply;
  let answer = parseJudgeResponse(reply.text, criterion);
  const notes: string[] = [];
  if (lacksReasoning(answer)) {
    // A decision without a justification: asked once more, then a judge error.
    const history: BaseMessageLike[] = [
      ["human", prompt.user],
      ["ai", reply.text],
    ];
    reply = await ask({ ...call, purpose: "repair", user: reasoningRepairPrompt(), history });
    if ("outcome" in reply) return reply;
    answer = parseJudgeResponse(reply.text, criterion);
    notes.push(ASKED_AGAIN_NOTE);
  }
  // Kept under the first call: the answer this prompt finally got.
  if (answer.usable && scale === undefined) await ctx.session.remember(call, reply.text);
  const outcome = outcomeOf(answer, reply, scale);
  return { outcome, raw: reply.text, notes: [...notes, ...answer.notes], called: true, examples };
}

function modelFailure(error: unknown): JudgedCriterion {
  const modelError = judgeCallError(error);
  return {
    outcome: notEvaluatedOutcome(`judge model error: ${modelError.message}`),
    notes: [],
    modelError,
    called: true,
  };
}
