/**
 * The prompt evaluator, whole: what it is asked and what it returns (the schemas), the rubric
 * items as criteria and their results, the holds when a judgement contradicts its reasoning, and
 * PromptEvaluator, which judges a free-form answer or a list of rubric items in one call.
 */
import type { BaseMessageLike } from "@langchain/core/messages";
import { z } from "zod";
import { reasoningRepairPrompt } from "../../../prompts/evaluation/index.js";
import {
  type Catalog,
  CatalogSchema,
  type Criterion,
  CriterionSchema,
} from "../../criteria/model.js";
import { toOutcome } from "../../judge/answer.js";
import { ASKED_AGAIN_NOTE, lacksReasoning, parseFreeformResponse } from "../../judge/parse.js";
import { parseRubricResponse, type RubricAnswer } from "../../judge/parseRubric.js";
import { type JudgePrompt, renderFreeformPrompt, renderRubricPrompt } from "../../judge/render.js";
import type { JudgeModel, ModelSource } from "../../llm/chatModel.js";
import { makeCriterionResult, notEvaluatedOutcome } from "../../scoring/criterionResult.js";
import { type Trace, TraceSchema } from "../../scoring/result.js";
import { scoreCatalogResult } from "../../scoring/scoreCatalog.js";
import { settleResult } from "../../scoring/settle.js";
import { VERDICT_BANDS, verdictForScore } from "../../scoring/verdict.js";
import { checkContentBudget } from "../contentBudget.js";
import { resolveJudgeModel } from "../evaluateContent.js";
import { screenForInjection } from "../injectionScreen.js";
import { JudgeSession } from "../judgeSession.js";
import { injectionGuardDefault } from "../options.js";
import { reasoningContradiction } from "../reasoningCheck.js";
import { evaluationModelError, parseInput } from "./boundary.js";

/** A rubric item: what a good answer shows, its weight, and whether it is required. */
export const PromptRubricItemSchema = z.strictObject({
  id: z.string().trim().min(1),
  expected_outcome: z.string().trim().min(1),
  weight: z.number().finite().min(0).default(1),
  required: z.boolean().default(false),
});
export type PromptRubricItem = z.infer<typeof PromptRubricItemSchema>;
export type PromptRubricItemInput = z.input<typeof PromptRubricItemSchema>;

/** The rubric list: ids unique, some weight to score by. Empty means freeform mode. */
export const PromptRubricsSchema = z.array(PromptRubricItemSchema).superRefine((items, ctx) => {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) {
      ctx.addIssue({
        code: "custom",
        path: [index, "id"],
        message: `rubric item id '${item.id}' appears more than once`,
      });
    }
    seen.add(item.id);
  });
  if (items.length > 0 && items.every((item) => item.weight === 0)) {
    ctx.addIssue({ code: "custom", message: "every rubric item has weight 0: nothing to score" });
  }
});

/** What one evaluation is asked: the question, candidate, reference and expected outcome. */
export const PromptEvaluationInputSchema = z.strictObject({
  question: z.string(),
  candidateAnswer: z.string(),
  referenceAnswer: z.string().optional(),
  /** What a good answer achieves (freeform mode; in rubric mode the items say it). */
  expectedOutcome: z.string().optional(),
});
export type PromptEvaluationInput = z.infer<typeof PromptEvaluationInputSchema>;

/**
 * Verdict bands plus `error`: the judge gave no usable answer, which is neither a low
 * score nor a pass.
 */
export const PromptVerdictSchema = z.enum(["pass", "borderline", "fail", "error"]);
export type PromptVerdict = z.infer<typeof PromptVerdictSchema>;

/** How the judge answered one rubric item. */
export const RubricItemResultSchema = z.object({
  id: z.string(),
  expected_outcome: z.string(),
  weight: z.number().min(0),
  required: z.boolean(),
  /** pass / fail as judged; `error` when the judge did not answer the item usably. */
  result: z.enum(["pass", "fail", "error"]),
  reasoning: z.string(),
  judgeError: z.string().optional(),
});
export type RubricItemResult = z.infer<typeof RubricItemResultSchema>;

export const PromptEvaluationSchema = z.object({
  /** 0–1: the judge's score (freeform) or Σ weight of passed items / Σ weight of judged items. */
  score: z.number().min(0).max(1),
  hits: z.array(z.string()),
  misses: z.array(z.string()),
  reasoning: z.string(),
  verdict: PromptVerdictSchema,
  mode: z.enum(["freeform", "rubric"]),
  /** The exact prompts sent (evaluator_provider_request). */
  evaluatorProviderRequest: z.object({ systemPrompt: z.string(), userPrompt: z.string() }),
  /** Why the judge's answer (or part of it) could not be used. */
  judgeError: z.string().optional(),
  /** What the parser corrected or doubted (score clamped, lists trimmed, reasoning empty). */
  notes: z.array(z.string()),
  /**
   * The candidate answer looked like it addressed the judge (prompt injection): the verdict is
   * never `pass` until a human has reviewed it; the reasons say what was found.
   */
  humanReviewRequired: z.boolean(),
  humanReviewReasons: z.array(z.string()).optional(),
  /** Rubric mode: each item as judged. */
  rubricResults: z.array(RubricItemResultSchema).optional(),
  trace: TraceSchema,
});
export type PromptEvaluation = z.infer<typeof PromptEvaluationSchema>;

/** Each rubric item as judged: pass / fail, or `error` when the judge gave no usable answer. */
function rubricItemResults(
  rubrics: readonly PromptRubricItem[],
  answer: RubricAnswer,
): RubricItemResult[] {
  return rubrics.map((item) => {
    const judged = answer.items[item.id];
    const base = { ...item, reasoning: judged?.reasoning ?? "" };
    if (judged === undefined || !judged.usable) {
      return {
        ...base,
        result: "error",
        judgeError: judged?.judgeError ?? `no result for rubric item '${item.id}'`,
      };
    }
    return { ...base, result: judged.native === "pass" ? "pass" : "fail" };
  });
}

/** The judge's overall reasoning, or else each item's. */
function rubricReasoning(answer: RubricAnswer, results: readonly RubricItemResult[]): string {
  if (answer.reasoning !== "") return answer.reasoning;
  return results
    .filter((r) => r.reasoning !== "")
    .map((r) => `${r.id}: ${r.reasoning}`)
    .join("\n");
}

/** The rubric items as criterion results, an unanswered item as not evaluated. */
function rubricCriterionResults(
  items: readonly Criterion[],
  answer: RubricAnswer,
  catalog: Catalog,
) {
  return items.map((item) => {
    const judged = answer.items[item.id];
    const outcome =
      judged === undefined
        ? notEvaluatedOutcome(`no result for rubric item '${item.id}'`)
        : toOutcome(judged);
    return makeCriterionResult(item, outcome, catalog);
  });
}

/** Rubric items as check criteria: a required item is critical, and every item must be judged. */
function rubricCriteria(items: readonly PromptRubricItem[]): Criterion[] {
  return items.map((item) =>
    CriterionSchema.parse({
      id: item.id,
      title: item.id,
      description: item.expected_outcome,
      weight: item.weight,
      critical: item.required,
      required: true,
      method: { kind: "check", expectedOutcome: item.expected_outcome },
    }),
  );
}

/** True when some rubric item was decided without any reasoning (worth asking again). */
function rubricLacksReasoning(answer: RubricAnswer): boolean {
  return Object.values(answer.items).some((item) => lacksReasoning(item));
}

/** Whether a verdict passes: pass yes, fail no, borderline and error undecided. */
function passes(verdict: PromptEvaluation["verdict"]): boolean | null {
  return verdict === "pass" ? true : verdict === "fail" ? false : null;
}

/**
 * The contradictions between reasoning and result: the free-form verdict against its reasoning,
 * and each rubric item's pass or fail against the item's own reasoning.
 */
function reasoningHolds(evaluation: PromptEvaluation): string[] {
  if (evaluation.mode === "freeform") {
    const found = reasoningContradiction(
      evaluation.reasoning,
      passes(evaluation.verdict),
      String(evaluation.score),
    );
    return found === undefined ? [] : [`the evaluation: ${found}`];
  }
  return (evaluation.rubricResults ?? []).flatMap((item) => {
    const met = item.result === "error" ? null : item.result === "pass";
    const found = reasoningContradiction(item.reasoning, met, item.result);
    return found === undefined ? [] : [`rubric item ${item.id}: ${found}`];
  });
}

export interface PromptEvaluatorOptions {
  /** The judge: a `provider:model` spec, a LangChain chat model, or a model from createChatModel. */
  model: ModelSource | JudgeModel;
  /** Rubric items; non-empty switches to rubric mode. */
  rubrics?: readonly PromptRubricItemInput[];
  /** Per model call, when the judge is built from a spec or a chat model (default 60 s). */
  timeoutMs?: number;
  /** Append every model call's trace to this JSONL file. */
  traceFile?: string;
  /** Ask the judge model whether the candidate answer addresses it (default: on, see evaluateContent). */
  injectionGuard?: boolean;
  /** The most bytes of candidate answer sent to the judge (default: contentBudgetBytes()). */
  maxContentBytes?: number;
}

/** The id the freeform judgement is traced under. */
export const FREEFORM_TRACE_ID = "freeform";

/** What a judge that gave no usable answer yields: a judge error scored 0, never a pass. */
function judgeErrorEvaluation(common: object, judgeError: string): PromptEvaluation {
  return PromptEvaluationSchema.parse({
    ...common,
    score: 0,
    hits: [],
    misses: [],
    verdict: "error",
    judgeError,
  });
}

/**
 * The prompt evaluator: one judge for free-form answers and rubric items. Freeform mode (no rubric
 * items): one call, the answer read as `{score 0–1, hits, misses, reasoning}` — score clamped,
 * lists at most four — and the verdict from the score (pass ≥ 0.8, borderline ≥ 0.6, fail below).
 * Rubric mode: one call in which every item is checked pass/fail; score = Σ weight of passed items
 * / Σ weight of judged items; a required item not met fails the verdict, otherwise the same bands
 * apply.
 *
 * Where a bare judge would zero the score silently when the answer holds no valid JSON, this
 * evaluator also says so: `judgeError` is set and the verdict is `error`, never `fail` or `pass`.
 * Rubric items the judge left unanswered are judge errors: left out of the score, named in
 * `judgeError`, and the verdict cannot be `pass`. A model that cannot be called throws
 * EvaluationModelError.
 *
 * @example
 * const evaluator = new PromptEvaluator({
 *   model: "ollama:qwen2.5:7b-instruct",
 *   rubrics: [{ id: "cites", expected_outcome: "Cites a source", weight: 1, required: true }],
 * });
 * const { verdict, score } = await evaluator.evaluate({ question, candidateAnswer });
 */
export class PromptEvaluator {
  readonly rubrics: readonly PromptRubricItem[];
  private readonly judge: JudgeModel;
  private readonly traceFile: string | undefined;
  private readonly items: readonly Criterion[];
  private readonly catalog: Catalog | undefined;
  private readonly guard: boolean;
  private readonly maxContentBytes: number | undefined;

  constructor(options: PromptEvaluatorOptions) {
    this.rubrics = parseInput(PromptRubricsSchema, options.rubrics ?? [], "rubrics");
    this.items = rubricCriteria(this.rubrics);
    this.catalog =
      this.items.length === 0
        ? undefined
        : CatalogSchema.parse({
            id: "prompt-evaluator-rubric",
            name: "rubric items",
            version: "1",
            passingThreshold: VERDICT_BANDS.pass,
            criteria: this.items,
          });
    this.judge = resolveJudgeModel(
      options.model,
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
    );
    this.traceFile = options.traceFile;
    this.guard = options.injectionGuard ?? injectionGuardDefault();
    this.maxContentBytes = options.maxContentBytes;
  }

  get mode(): "freeform" | "rubric" {
    return this.catalog === undefined ? "freeform" : "rubric";
  }

  async evaluate(
    input: PromptEvaluationInput,
    options: { signal?: AbortSignal } = {},
  ): Promise<PromptEvaluation> {
    const request = parseInput(PromptEvaluationInputSchema, input, "evaluation input");
    checkContentBudget(request.candidateAnswer, this.maxContentBytes, "the candidate answer");
    const reasons = await this.screen(request, options.signal);
    const evaluation =
      this.catalog === undefined
        ? await this.freeform(request, options.signal)
        : await this.rubric(request, this.catalog, options.signal);
    const held = [...reasons, ...reasoningHolds(evaluation)];
    if (held.length === 0) return evaluation;
    // Held for review: never a pass without a human, whatever the score says.
    return PromptEvaluationSchema.parse({
      ...evaluation,
      verdict: evaluation.verdict === "pass" ? "borderline" : evaluation.verdict,
      humanReviewRequired: true,
      humanReviewReasons: held,
    });
  }

  /** The candidate answer (the content judged) screened for injection. */
  private async screen(request: PromptEvaluationInput, signal: AbortSignal | undefined) {
    const session = new JudgeSession(this.judge, { traceFile: this.traceFile, signal });
    const texts = [{ where: "the candidate answer", text: request.candidateAnswer }];
    const { reasons } = await screenForInjection(texts, this.guard ? session : undefined);
    await session.flush();
    return reasons;
  }

  /** One judge call, traced; a model that cannot be called is an EvaluationModelError. */
  private async ask(
    prompt: JudgePrompt,
    criterionIds: readonly string[],
    signal: AbortSignal | undefined,
    firstAnswer?: string,
  ): Promise<{ raw: string; trace: Trace }> {
    const session = new JudgeSession(this.judge, { traceFile: this.traceFile, signal });
    const repair =
      firstAnswer === undefined
        ? {}
        : {
            user: reasoningRepairPrompt(),
            history: [
              ["human", prompt.user],
              ["ai", firstAnswer],
            ] satisfies BaseMessageLike[],
          };
    try {
      const raw = await session.call({
        purpose: firstAnswer === undefined ? "criterion" : "repair",
        criterionIds,
        system: prompt.system,
        user: prompt.user,
        ...repair,
      });
      const trace = session.traces.at(-1);
      if (trace === undefined) throw new Error("internal: the judge call left no trace");
      return { raw, trace };
    } catch (error) {
      throw evaluationModelError(error, criterionIds);
    } finally {
      await session.flush();
    }
  }

  /**
   * One judge call whose answer is read by `parse`; an answer that decided without reasoning is
   * asked once more (the first answer kept in the conversation), and what the second answer says
   * stands — still unjustified, it is a judge error.
   */
  private async askJustified<Answer extends { notes: string[] }>(
    prompt: JudgePrompt,
    criterionIds: readonly string[],
    signal: AbortSignal | undefined,
    parse: (raw: string) => Answer,
    needsReasoning: (answer: Answer) => boolean,
  ): Promise<{ answer: Answer; trace: Trace }> {
    const first = await this.ask(prompt, criterionIds, signal);
    const answer = parse(first.raw);
    if (!needsReasoning(answer)) return { answer, trace: first.trace };
    const second = await this.ask(prompt, criterionIds, signal, first.raw);
    const again = parse(second.raw);
    return {
      answer: { ...again, notes: [ASKED_AGAIN_NOTE, ...again.notes] },
      trace: second.trace,
    };
  }

  private async freeform(
    request: PromptEvaluationInput,
    signal: AbortSignal | undefined,
  ): Promise<PromptEvaluation> {
    const prompt = renderFreeformPrompt(request);
    const { answer, trace } = await this.askJustified(
      prompt,
      [FREEFORM_TRACE_ID],
      signal,
      parseFreeformResponse,
      lacksReasoning,
    );
    const common = {
      humanReviewRequired: false,
      mode: "freeform" as const,
      evaluatorProviderRequest: { systemPrompt: prompt.system, userPrompt: prompt.user },
      reasoning: answer.reasoning,
      notes: answer.notes,
      trace,
    };
    if (!answer.usable) {
      return judgeErrorEvaluation(
        common,
        answer.judgeError ?? "the judge's answer could not be used",
      );
    }
    return PromptEvaluationSchema.parse({
      ...common,
      score: answer.score01,
      hits: answer.hits,
      misses: answer.misses,
      verdict: verdictForScore(answer.score01),
    });
  }

  private async rubric(
    request: PromptEvaluationInput,
    catalog: Catalog,
    signal: AbortSignal | undefined,
  ): Promise<PromptEvaluation> {
    const prompt = renderRubricPrompt({
      question: request.question,
      candidateAnswer: request.candidateAnswer,
      referenceAnswer: request.referenceAnswer,
      items: this.items,
    });
    const { answer, trace } = await this.askJustified(
      prompt,
      this.items.map((item) => item.id),
      signal,
      (raw) => parseRubricResponse(raw, this.items),
      rubricLacksReasoning,
    );
    const rubricResults = rubricItemResults(this.rubrics, answer);
    const common = {
      humanReviewRequired: false,
      mode: "rubric" as const,
      evaluatorProviderRequest: { systemPrompt: prompt.system, userPrompt: prompt.user },
      reasoning: rubricReasoning(answer, rubricResults),
      notes: answer.notes,
      rubricResults,
      trace,
    };
    if (!answer.usable) {
      return judgeErrorEvaluation(common, answer.judgeError ?? "no rubric item was answered");
    }
    const scored = scoreCatalogResult(catalog, rubricCriterionResults(this.items, answer, catalog));
    const unanswered = rubricResults.filter((r) => r.result === "error");
    return PromptEvaluationSchema.parse({
      ...common,
      score: scored.overallScore,
      hits: answer.hits,
      misses: answer.misses,
      verdict: settleResult(catalog, scored).verdict,
      ...(unanswered.length === 0
        ? {}
        : {
            judgeError: `the judge gave no usable result for ${unanswered
              .map((r) => `'${r.id}' (${r.judgeError})`)
              .join(", ")}`,
          }),
    });
  }
}
