/**
 * The levels rubric executor, whole: what it accepts as a rubric (rubricCatalog), the evaluation
 * it returns (RubricEvaluationSchema), the view of the pipeline's result in that shape
 * (toRubricEvaluation, the summary in the rubric's words), and RubricExecutor, which runs the
 * rubric through the pipeline.
 */

import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { FunctionRegistry } from "../../checks/registry.js";
import { activeCatalog } from "../../criteria/activeCatalog.js";
import {
  type Catalog,
  CatalogSchema,
  type Criterion,
  type MethodKind,
} from "../../criteria/model.js";
import { parseCatalog } from "../../criteria/parse.js";
import { requireUsableCatalog } from "../../criteria/validate.js";
import type { JudgeModel, ModelSource } from "../../llm/chatModel.js";
import { deterministicSummary, type SummaryInput } from "../../scoring/deterministicSummary.js";
import type { CriterionResult, EvaluationResult, Trace } from "../../scoring/result.js";
import { EvaluationError } from "../errors.js";
import { resolveJudgeModel, runEvaluation } from "../evaluateContent.js";
import { type PipelineFeatures, pipelineFeatures } from "../options.js";

/** How a levels rubric result names the way a criterion was scored. */
export const ScoringMethodUsedSchema = z.enum(["deterministic", "schema", "llm_decode"]);
export type ScoringMethodUsed = z.infer<typeof ScoringMethodUsedSchema>;

/** The level id of a criterion whose function or schema check failed to run. */
export const ERROR_LEVEL_ID = "error";
/** The level id of an LLM-decided criterion without a usable answer. */
export const UNABLE_TO_EVALUATE_LEVEL_ID = "unable_to_evaluate";

/** `llm_invocation`: the model call behind an llm_decode result. */
export const LlmInvocationSchema = z.object({
  model: z.string(),
  /** sha256 of the exact system and user prompt. */
  prompt_hash: z.string(),
  /** sha256 of the exact raw response. */
  response_hash: z.string(),
  timestamp: z.string(),
  /** The sampling seed the call was made with, where the provider takes one. */
  seed: z.number().int().optional(),
  usage: z.object({
    input_tokens: z.number().int().min(0),
    output_tokens: z.number().int().min(0),
    total_tokens: z.number().int().min(0),
  }),
  /** Set when the call failed. */
  error: z.string().optional(),
});
export type LlmInvocation = z.infer<typeof LlmInvocationSchema>;

/** One criterion of a levels rubric evaluation: the level, the score, how it was scored. */
export const RubricCriterionResultSchema = z.object({
  criterion_id: z.string(),
  /** The level decided; `error` or `unable_to_evaluate` when none could be. */
  level_id: z.string(),
  /** 0–1; null when the criterion could not be evaluated (never silently a zero). */
  score: z.number().min(0).max(1).nullable(),
  evidence: z.array(z.string()),
  /** The reasoning, or why the criterion could not be evaluated. */
  notes: z.string(),
  scoring_method_used: ScoringMethodUsedSchema,
  llm_invocation: LlmInvocationSchema.optional(),
});
export type RubricCriterionResult = z.infer<typeof RubricCriterionResultSchema>;

/** A levels rubric evaluation: every criterion's result, the score, the summary, the warnings. */
export const RubricEvaluationSchema = z.object({
  id: z.string().regex(/^eval_[0-9a-f]+$/),
  rubric_id: z.string(),
  rubric_version: z.string(),
  target_id: z.string(),
  target_type: z.string(),
  criterion_results: z.array(RubricCriterionResultSchema),
  /** Σ weight·score / Σ weight over the criteria that were evaluated. */
  weighted_score: z.number().min(0).max(1),
  passed: z.boolean(),
  /** The target looked like it addressed the judge: it cannot pass until a human has reviewed it. */
  human_review_required: z.boolean(),
  /** `id@version` of the rubric registry's active version, when the rubric came from there. */
  registry_version: z.string().optional(),
  feedback_summary: z.string(),
  evaluated_at: z.string(),
  evaluated_by: z.string(),
  /** What loading or evaluating doubted (weights normalised, criteria not evaluated, …). */
  warnings: z.array(z.string()),
});
export type RubricEvaluation = z.infer<typeof RubricEvaluationSchema>;

/** What RubricExecutor accepts as a rubric. */
export type RubricSource = Catalog | Record<string, unknown> | string;

function looksLikeJson(text: string): boolean {
  const start = text.trimStart();
  return start.startsWith("{") || start.startsWith("[");
}

/**
 * The rubric as a catalog: a `Catalog` value checked as a file would be; a levels rubric object
 * (or any other catalog form) through parseCatalog as JSON; a text as JSON or TOON by its first character. Invalid
 * rubrics throw the loader's CatalogError, naming the path and what was expected.
 */
export function rubricCatalog(rubric: RubricSource, source = "<rubric>"): Catalog {
  if (typeof rubric === "string") {
    return parseCatalog(rubric, { format: looksLikeJson(rubric) ? "json" : "toon", source });
  }
  const asCatalog = CatalogSchema.safeParse(rubric);
  // A catalog value is decided as a file with the same content would be.
  if (asCatalog.success) return requireUsableCatalog(asCatalog.data, source);
  return parseCatalog(JSON.stringify(rubric), { format: "json", source });
}

/**
 * The summary to report: the model's, when the engine got one; else the engine's deterministic
 * summary (kept when no model summary was asked for or the model could not give one, and
 * recognised exactly) in the rubric's words: `Evaluation PASSED for rubric 'Content Quality'.`,
 * then the overall score, one line per criterion and the suggestions.
 */
function rubricFeedback(catalog: Catalog, evaluation: SummaryInput & { feedback: string }): string {
  const deterministic = deterministicSummary(catalog, evaluation);
  if (evaluation.feedback !== deterministic) return evaluation.feedback;
  const [, ...rest] = deterministic.split("\n");
  const outcome = `Evaluation ${evaluation.passed ? "PASSED" : "FAILED"} for rubric '${catalog.name}'.`;
  return [outcome, ...rest].join("\n");
}

export interface RubricExecutorOptions extends PipelineFeatures {
  /** Functions for deterministic criteria, registered by their `module:function` ref. */
  functionRegistry?: FunctionRegistry;
  /**
   * The LLM for llm_decode criteria and the LLM-enhanced feedback summary: a `provider:model`
   * spec, a LangChain chat model, or a model from createChatModel. Without one, llm_decode
   * criteria are reported as `unable_to_evaluate` and the summary is the deterministic one.
   */
  llm?: ModelSource | JudgeModel;
  /** `evaluated_by` of every evaluation (default "system"). */
  evaluatedBy?: string;
  /** Where schema_ref files and relative function modules are found (default: process.cwd()). */
  baseDir?: string;
  /** Per model call, when the llm is built from a spec or a chat model (default 60 s). */
  timeoutMs?: number;
  /** Sampling seed of every call of an llm built from a spec (default EVALGATE_SEED, else 42). */
  seed?: number | null;
  /** The clock, for `evaluated_at`. */
  now?: () => Date;
}

export interface RubricEvaluateOptions {
  targetId?: string;
  /** Default: the rubric's target type. */
  targetType?: string;
  signal?: AbortSignal;
}

const LLM_TRACE_PURPOSES: ReadonlySet<Trace["purpose"]> = new Set(["criterion", "batch", "repair"]);

function scoringMethodUsed(kind: MethodKind): ScoringMethodUsed {
  if (kind === "function") return "deterministic";
  if (kind === "schema") return "schema";
  return "llm_decode";
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.filter((item) => item.trim() !== ""))];
}

function llmInvocationOf(criterionId: string, traces: readonly Trace[]): LlmInvocation | undefined {
  const trace = traces
    .filter((t) => LLM_TRACE_PURPOSES.has(t.purpose) && t.criterionIds.includes(criterionId))
    .at(-1);
  if (trace === undefined) return undefined;
  return {
    model: trace.model,
    prompt_hash: trace.promptHash,
    response_hash: trace.responseHash,
    timestamp: trace.timestamp,
    ...(typeof trace.parameters.seed === "number" ? { seed: trace.parameters.seed } : {}),
    usage: {
      input_tokens: trace.usage.inputTokens,
      output_tokens: trace.usage.outputTokens,
      total_tokens: trace.usage.totalTokens,
    },
    ...(trace.error === undefined ? {} : { error: trace.error }),
  };
}

/** The level a result is reported at: its level, its pass/fail, or why there is none. */
function levelIdOf(result: CriterionResult, method: ScoringMethodUsed): string {
  if (!result.evaluated) {
    return method === "llm_decode" ? UNABLE_TO_EVALUATE_LEVEL_ID : ERROR_LEVEL_ID;
  }
  if (result.level !== undefined) return result.level;
  if (typeof result.native === "string") return result.native;
  return result.met === true ? "pass" : "fail";
}

function notesOf(result: CriterionResult): string {
  if (result.evaluated) return result.reasoning;
  const error = result.judgeError ?? "not evaluated";
  const reasoning = result.reasoning.trim();
  return reasoning === "" || error.includes(reasoning) ? error : `${error} — ${reasoning}`;
}

function criterionResultOf(
  criterion: Criterion,
  result: CriterionResult,
  traces: readonly Trace[],
): RubricCriterionResult {
  const method = scoringMethodUsed(criterion.method.kind);
  const invocation = method === "llm_decode" ? llmInvocationOf(criterion.id, traces) : undefined;
  return {
    criterion_id: criterion.id,
    level_id: levelIdOf(result, method),
    score: result.evaluated ? result.score : null,
    evidence: unique([...result.evidence, ...result.hits]),
    notes: notesOf(result),
    scoring_method_used: method,
    ...(invocation === undefined ? {} : { llm_invocation: invocation }),
  };
}

/** What a levels rubric evaluation says besides the result: its id, target and evaluator. */
export interface RubricEvaluationLabels {
  /** `eval_` and hex digits. */
  id: string;
  targetId?: string;
  /** Default: the rubric's target type. */
  targetType?: string;
  evaluatedBy: string;
}

/**
 * The pipeline's result of a levels rubric (its catalog) as a levels rubric evaluation: each
 * criterion's level (`error` for a function or schema that failed, `unable_to_evaluate` for an
 * LLM-decided one without a usable answer, a judge that could not be reached or no llm), its
 * score (null when not evaluated, never a zero), evidence, notes, how it was scored and the model
 * call behind it; the weighted score, passed, the screening, the summary in the rubric's words.
 */
export function toRubricEvaluation(
  result: EvaluationResult,
  catalog: Catalog,
  labels: RubricEvaluationLabels,
): RubricEvaluation {
  const byId = new Map(result.criteria.map((r) => [r.id, r]));
  return RubricEvaluationSchema.parse({
    id: labels.id,
    rubric_id: catalog.id,
    rubric_version: catalog.version,
    target_id: labels.targetId ?? "",
    target_type: labels.targetType ?? catalog.targetType ?? "",
    criterion_results: catalog.criteria.map((criterion) => {
      const judged = byId.get(criterion.id);
      if (judged === undefined) {
        throw new EvaluationError("input", `the result has no criterion ${criterion.id}`);
      }
      return criterionResultOf(criterion, judged, result.traces);
    }),
    weighted_score: result.overallScore,
    passed: result.passed,
    human_review_required: result.humanReviewRequired === true,
    registry_version: catalog.registryVersion,
    feedback_summary: rubricFeedback(catalog, result),
    evaluated_at: result.timestamp,
    evaluated_by: labels.evaluatedBy,
    warnings: unique(result.warnings),
  });
}

/**
 * The levels rubric executor on top of the engine: deterministic functions (registered by ref or
 * imported), JSON Schema checks and llm_decode levels, weighted scoring against the rubric's pass
 * threshold, and the feedback summary — model-written when an llm is set (the deterministic one
 * when it cannot answer), else the template summary.
 *
 * A function that throws or cannot be resolved gives level `error` (the message in `notes`); an
 * llm_decode criterion without a usable answer — no llm configured, or one that cannot be
 * reached — gives `unable_to_evaluate`. Either is left out of the weighted score — neither a zero
 * nor a pass — and a required criterion left out keeps the rubric from passing; the
 * deterministic criteria stand.
 *
 * @example
 * const registry = new FunctionRegistry();
 * registry.register("checks:hasBudgetTable", (text) => /\|\s*Item\s*\|/.test(String(text)));
 * const executor = new RubricExecutor({ functionRegistry: registry, llm: "ollama:qwen2.5:7b" });
 * const evaluation = await executor.evaluate(rubric, proposalText);
 * console.log(evaluation.passed, evaluation.feedback_summary);
 */
export class RubricExecutor {
  private readonly llm: JudgeModel | undefined;

  constructor(private readonly options: RubricExecutorOptions = {}) {
    const { llm, timeoutMs, seed } = options;
    this.llm = llm === undefined ? undefined : resolveJudgeModel(llm, { timeoutMs, seed });
  }

  /**
   * Evaluates `target` (an object or a text) against a rubric — the `rubricRegistry`'s active
   * version of it when the registry holds its id. Without an llm, or with one that cannot be
   * reached, the llm_decode criteria are `unable_to_evaluate` and the deterministic ones stand.
   */
  async evaluate(
    rubric: RubricSource,
    target: unknown,
    options: RubricEvaluateOptions = {},
  ): Promise<RubricEvaluation> {
    const given = this.options;
    const catalog = await activeCatalog(rubricCatalog(rubric), given.rubricRegistry);
    const evaluatedBy = given.evaluatedBy ?? "system";
    const { result } = await runEvaluation({
      ...pipelineFeatures(given),
      content: target,
      catalog,
      model: this.llm ?? null,
      summary: this.llm === undefined ? "deterministic" : "model",
      evaluator: evaluatedBy,
      registry: given.functionRegistry,
      baseDir: given.baseDir,
      now: given.now,
      signal: options.signal,
    });
    return toRubricEvaluation(result, catalog, {
      id: `eval_${randomUUID().replaceAll("-", "").slice(0, 16)}`,
      evaluatedBy,
      targetId: options.targetId,
      targetType: options.targetType,
    });
  }
}
