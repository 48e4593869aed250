import { z } from "zod";
import {
  FREEFORM_SYSTEM,
  FREEFORM_TEMPLATE,
  RUBRIC_SYSTEM,
} from "../../../prompts/evaluation/index.js";
import { type Catalog, CatalogSchema } from "../../criteria/model.js";
import type { JudgeModel, ModelSource } from "../../llm/chatModel.js";
import type { CriterionResult, EvaluationResult } from "../../scoring/result.js";
import { TraceSchema } from "../../scoring/result.js";
import { VERDICT_BANDS } from "../../scoring/scoreCatalog.js";
import { EvaluationError, parseInput } from "../errors.js";
import { resolveJudgeModel, runEvaluation } from "../evaluateContent.js";
import { type PipelineFeatures, pipelineFeatures } from "../options.js";
import { JUDGING_CALLS } from "./rubricExecutor.js";

const PromptRubricItemSchema = z.strictObject({
  id: z.string().trim().min(1),
  expected_outcome: z.string().trim().min(1),
  weight: z.number().finite().min(0).default(1),
  required: z.boolean().default(false),
});
type PromptRubricItem = z.infer<typeof PromptRubricItemSchema>;
export type PromptRubricItemInput = z.input<typeof PromptRubricItemSchema>;

/** Empty means freeform mode. */
const PromptRubricsSchema = z.array(PromptRubricItemSchema).superRefine((items, ctx) => {
  items.forEach((item, index) => {
    if (items.findIndex((other) => other.id === item.id) < index) {
      ctx.addIssue({
        code: "custom",
        path: [index, "id"],
        message: `rubric item id '${item.id}' appears more than once`,
      });
    }
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

const RubricItemResultSchema = z.object({
  id: z.string(),
  expected_outcome: z.string(),
  weight: z.number().min(0),
  required: z.boolean(),
  result: z.enum(["pass", "fail", "error"]),
  reasoning: z.string(),
  judgeError: z.string().optional(),
});

export const PromptEvaluationSchema = z.object({
  /** The judge's score (freeform) or Σ weight of passed items / Σ weight of judged items. */
  score: z.number().min(0).max(1),
  hits: z.array(z.string()),
  misses: z.array(z.string()),
  reasoning: z.string(),
  /** `error`: the judge gave no usable answer, neither a low score nor a pass. */
  verdict: z.enum(["pass", "borderline", "fail", "error"]),
  mode: z.enum(["freeform", "rubric"]),
  /** The exact prompts sent; absent when the judge cache answered (`cached`). */
  evaluatorProviderRequest: z
    .object({ systemPrompt: z.string(), userPrompt: z.string() })
    .optional(),
  judgeError: z.string().optional(),
  /** What the parser corrected or doubted (score clamped, a table row ignored, a repair round), cache problems. */
  notes: z.array(z.string()),
  /** Held for review (e.g. possible prompt injection): the verdict is never `pass`. */
  humanReviewRequired: z.boolean(),
  humanReviewReasons: z.array(z.string()).optional(),
  rubricResults: z.array(RubricItemResultSchema).optional(),
  /** The last judging call (a repair round's, when there was one). */
  trace: TraceSchema.optional(),
  cached: z.boolean().optional(),
  registryVersion: z.string().optional(),
});
export type PromptEvaluation = z.infer<typeof PromptEvaluationSchema>;

/** Freeform: one 0–1 score criterion; rubric: each item a check, a required item critical. */
export function promptCatalog(
  rubrics: readonly PromptRubricItem[],
  expectedOutcome?: string,
): Catalog {
  const freeform = rubrics.length === 0;
  return CatalogSchema.parse({
    id: freeform ? "prompt-evaluator" : "prompt-evaluator-rubric",
    name: freeform ? "freeform" : "rubric items",
    version: "1",
    passingThreshold: VERDICT_BANDS.pass,
    instructions: freeform ? FREEFORM_SYSTEM : RUBRIC_SYSTEM,
    criteria: freeform
      ? [
          {
            id: "freeform",
            title: "Expected outcome",
            description:
              expectedOutcome?.trim() ||
              "(none given: judge how well the candidate answers the question)",
            weight: 1,
            method: { kind: "score", scale: { min: 0, max: 1 } },
          },
        ]
      : rubrics.map((item) => ({
          id: item.id,
          title: item.id,
          description: item.expected_outcome,
          weight: item.weight,
          critical: item.required,
          required: true,
          method: { kind: "check", expectedOutcome: item.expected_outcome },
        })),
  });
}

/** The notes of a batch table or group answer, and of the judge cache, among the warnings. */
const JUDGING_NOTE = /^(batch|group \d+\/\d+|judge cache): /;

/** What the answers' notes say (`<id>: <note>`, without the id), the table's and the cache's. */
function notesOf(result: EvaluationResult): string[] {
  return result.warnings.flatMap((warning) => {
    const id = result.criteria.find((c) => warning.startsWith(`${c.id}: `))?.id;
    if (id !== undefined) return [warning.slice(id.length + 2)];
    return JUDGING_NOTE.test(warning) ? [warning] : [];
  });
}

function rubricItemResult(item: PromptRubricItem, judged: CriterionResult | undefined) {
  const base = { ...item, reasoning: judged?.reasoning ?? "" };
  if (judged === undefined || !judged.evaluated) {
    const judgeError = judged?.judgeError ?? `no result for rubric item '${item.id}'`;
    return { ...base, result: "error" as const, judgeError };
  }
  return { ...base, result: judged.native === "pass" ? ("pass" as const) : ("fail" as const) };
}

function rubricView(result: EvaluationResult, rubrics: readonly PromptRubricItem[]) {
  const byId = new Map(result.criteria.map((c) => [c.id, c]));
  const rubricResults = rubrics.map((item) => rubricItemResult(item, byId.get(item.id)));
  const outcomes = (wanted: string) =>
    rubricResults.filter((r) => r.result === wanted).map((r) => r.expected_outcome);
  const unanswered = rubricResults.filter((r) => r.result === "error");
  const none = unanswered.length === rubricResults.length;
  const listed = unanswered.map((r) => `'${r.id}' (${r.judgeError})`).join(", ");
  return {
    rubricResults,
    hits: outcomes("pass"),
    misses: outcomes("fail"),
    reasoning: rubricResults
      .filter((r) => r.reasoning !== "")
      .map((r) => `${r.id}: ${r.reasoning}`)
      .join("\n"),
    score: none ? 0 : result.overallScore,
    ...(unanswered.length === 0
      ? {}
      : { judgeError: `the judge gave no usable result for ${listed}` }),
  };
}

function freeformView(result: EvaluationResult) {
  const judged = result.criteria[0];
  if (judged === undefined) throw new EvaluationError("input", "the result has no criterion");
  const usable = judged.evaluated && judged.score !== null;
  return {
    score: usable ? (judged.score ?? 0) : 0,
    hits: usable ? judged.hits : [],
    misses: usable ? judged.misses : [],
    reasoning: judged.reasoning,
    ...(usable ? {} : { judgeError: judged.judgeError ?? "the judge's answer could not be used" }),
  };
}

/** The pipeline's result of a promptCatalog as a PromptEvaluation; a judge error is verdict `error`. */
export function toPromptEvaluation(
  result: EvaluationResult,
  rubrics: readonly PromptRubricItem[] = [],
): PromptEvaluation {
  const calls = result.traces.filter((t) => JUDGING_CALLS.has(t.purpose));
  const [asked, last] = [calls[0], calls.at(-1)];
  const view = rubrics.length === 0 ? freeformView(result) : rubricView(result, rubrics);
  const nothing = result.notEvaluated.length === result.criteria.length;
  return PromptEvaluationSchema.parse({
    ...view,
    verdict: nothing ? "error" : result.verdict,
    mode: rubrics.length === 0 ? "freeform" : "rubric",
    evaluatorProviderRequest: asked && {
      systemPrompt: asked.systemPrompt,
      userPrompt: asked.userPrompt,
    },
    notes: [
      ...notesOf(result),
      ...result.criteria.flatMap((c) =>
        c.scoreMethod === "plain" && c.scoreMethodReason !== undefined
          ? [`score not probability-weighted: ${c.scoreMethodReason}`]
          : [],
      ),
    ],
    humanReviewRequired: result.humanReviewRequired === true,
    humanReviewReasons: result.humanReviewReasons,
    trace: last,
    ...((result.cacheHits ?? 0) > 0 ? { cached: true } : {}),
    registryVersion: result.catalog.registryVersion,
  });
}

export interface PromptEvaluatorOptions extends PipelineFeatures {
  model: ModelSource | JudgeModel;
  /** Rubric items; non-empty switches to rubric mode. */
  rubrics?: readonly PromptRubricItemInput[];
  timeoutMs?: number;
  injectionGuard?: boolean;
}

/**
 * Free-form answers (a 0–1 score, verdict by band) or rubric items (pass/fail checks in one call)
 * on the pipeline; a judge that gave no usable answer is verdict `error`, never `fail` or `pass`.
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

  constructor(private readonly options: PromptEvaluatorOptions) {
    this.rubrics = parseInput(PromptRubricsSchema, options.rubrics ?? [], "rubrics");
    this.judge = resolveJudgeModel(options.model, { timeoutMs: options.timeoutMs });
  }

  get mode(): "freeform" | "rubric" {
    return this.rubrics.length === 0 ? "freeform" : "rubric";
  }

  async evaluate(
    input: PromptEvaluationInput,
    options: { signal?: AbortSignal } = {},
  ): Promise<PromptEvaluation> {
    const request = parseInput(PromptEvaluationInputSchema, input, "evaluation input");
    const freeform = this.mode === "freeform";
    const { result } = await runEvaluation({
      ...pipelineFeatures(this.options),
      content: request.candidateAnswer,
      catalog: promptCatalog(this.rubrics, request.expectedOutcome),
      model: this.judge,
      question: request.question,
      referenceAnswer: request.referenceAnswer ?? "",
      // Rubric items are checked in one call; the freeform criterion is asked on its own.
      mode: freeform ? "per-criterion" : "batch",
      evaluationPrompt: freeform ? FREEFORM_TEMPLATE : undefined,
      injectionGuard: this.options.injectionGuard,
      signal: options.signal,
    });
    return toPromptEvaluation(result, this.rubrics);
  }
}
