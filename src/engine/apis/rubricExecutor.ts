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
import { hasOverallScore } from "../../scoring/shownScore.js";
import { EvaluationError } from "../errors.js";
import { resolveJudgeModel, runEvaluation } from "../evaluateContent.js";
import { type PipelineFeatures, pipelineFeatures } from "../options.js";

const ScoringMethodUsedSchema = z.enum(["deterministic", "schema", "llm_decode"]);
type ScoringMethodUsed = z.infer<typeof ScoringMethodUsedSchema>;

const LlmInvocationSchema = z.object({
  model: z.string(),
  /** sha256 of the exact prompts and of the raw response. */
  prompt_hash: z.string(),
  response_hash: z.string(),
  timestamp: z.string(),
  seed: z.number().int().optional(),
  usage: z.object({
    input_tokens: z.number().int().min(0),
    output_tokens: z.number().int().min(0),
    total_tokens: z.number().int().min(0),
  }),
  error: z.string().optional(),
});

const RubricCriterionResultSchema = z.object({
  criterion_id: z.string(),
  /** The level decided; `error` or `unable_to_evaluate` when none could be. */
  level_id: z.string(),
  /** null when the criterion could not be evaluated (never silently a zero). */
  score: z.number().min(0).max(1).nullable(),
  evidence: z.array(z.string()),
  /** The reasoning, or why the criterion could not be evaluated. */
  notes: z.string(),
  scoring_method_used: ScoringMethodUsedSchema,
  llm_invocation: LlmInvocationSchema.optional(),
});
type RubricCriterionResult = z.infer<typeof RubricCriterionResultSchema>;

/** A levels rubric evaluation: every criterion's result, the score, the summary, the warnings. */
export const RubricEvaluationSchema = z.object({
  id: z.string().regex(/^eval_[0-9a-f]+$/),
  rubric_id: z.string(),
  rubric_version: z.string(),
  target_id: z.string(),
  target_type: z.string(),
  criterion_results: z.array(RubricCriterionResultSchema),
  /** Σ weight·score / Σ weight over the criteria evaluated; null when none could be (never a zero). */
  weighted_score: z.number().min(0).max(1).nullable(),
  passed: z.boolean(),
  human_review_required: z.boolean(),
  /** Why it is held (prompt injection, a panel that disagrees, quotes not in the target …). */
  human_review_reasons: z.array(z.string()).optional(),
  /** `id@version` of the rubric registry's active version, when the rubric came from there. */
  registry_version: z.string().optional(),
  feedback_summary: z.string(),
  evaluated_at: z.string(),
  evaluated_by: z.string(),
  warnings: z.array(z.string()),
});
export type RubricEvaluation = z.infer<typeof RubricEvaluationSchema>;

/** What RubricExecutor accepts as a rubric. */
export type RubricSource = Catalog | Record<string, unknown> | string;

/** The rubric as a catalog, checked as a file with the same content would be. */
export function rubricCatalog(rubric: RubricSource, source = "<rubric>"): Catalog {
  if (typeof rubric === "string") {
    const json = /^\s*[{[]/.test(rubric);
    return parseCatalog(rubric, { format: json ? "json" : "toon", source });
  }
  const asCatalog = CatalogSchema.safeParse(rubric);
  if (asCatalog.success) return requireUsableCatalog(asCatalog.data, source);
  return parseCatalog(JSON.stringify(rubric), { format: "json", source });
}

/** The model's summary, else the deterministic one in the rubric's words. */
function rubricFeedback(catalog: Catalog, evaluation: SummaryInput & { feedback: string }): string {
  const deterministic = deterministicSummary(catalog, evaluation);
  if (evaluation.feedback !== deterministic) return evaluation.feedback;
  const [, ...rest] = deterministic.split("\n");
  const outcome = `Evaluation ${evaluation.passed ? "PASSED" : "FAILED"} for rubric '${catalog.name}'.`;
  return [outcome, ...rest].join("\n");
}

export interface RubricExecutorOptions extends PipelineFeatures {
  functionRegistry?: FunctionRegistry;
  /** Without one, llm_decode criteria are `unable_to_evaluate` and the summary is deterministic. */
  llm?: ModelSource | JudgeModel;
  /** `evaluated_by` of every evaluation (default "system"). */
  evaluatedBy?: string;
  /** Where schema_ref files and relative function modules are found (default: process.cwd()). */
  baseDir?: string;
  timeoutMs?: number;
  /** Sampling seed of an llm built from a spec (default EVALGATE_SEED, else 42). */
  seed?: number | null;
  now?: () => Date;
}

export interface RubricEvaluateOptions {
  targetId?: string;
  /** Default: the rubric's target type. */
  targetType?: string;
  signal?: AbortSignal;
}

/** The trace purposes of judging calls (not the guard's, not the summary's). */
export const JUDGING_CALLS: ReadonlySet<Trace["purpose"]> = new Set([
  "criterion",
  "batch",
  "repair",
]);

const DETERMINISTIC_METHODS: Partial<Record<MethodKind, ScoringMethodUsed>> = {
  function: "deterministic",
  schema: "schema",
};

function unique(items: readonly string[]): string[] {
  return [...new Set(items.filter((item) => item.trim() !== ""))];
}

function llmInvocationOf(
  criterionId: string,
  traces: readonly Trace[],
): z.infer<typeof LlmInvocationSchema> | undefined {
  const trace = traces
    .filter((t) => JUDGING_CALLS.has(t.purpose) && t.criterionIds.includes(criterionId))
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

function levelIdOf(result: CriterionResult, method: ScoringMethodUsed): string {
  if (!result.evaluated) {
    return method === "llm_decode" ? "unable_to_evaluate" : "error";
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
  const method = DETERMINISTIC_METHODS[criterion.method.kind] ?? "llm_decode";
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

/** The pipeline's result of a levels rubric's catalog as a levels rubric evaluation. */
export function toRubricEvaluation(
  result: EvaluationResult,
  catalog: Catalog,
  labels: RubricEvaluateOptions & { id: string; evaluatedBy: string },
): RubricEvaluation {
  const byId = new Map(result.criteria.map((r) => [r.id, r]));
  const criterionResults = catalog.criteria.map((criterion) => {
    const judged = byId.get(criterion.id);
    if (judged === undefined) {
      throw new EvaluationError("input", `the result has no criterion ${criterion.id}`);
    }
    return criterionResultOf(criterion, judged, result.traces);
  });
  return RubricEvaluationSchema.parse({
    id: labels.id,
    rubric_id: catalog.id,
    rubric_version: catalog.version,
    target_id: labels.targetId ?? "",
    target_type: labels.targetType ?? catalog.targetType ?? "",
    criterion_results: criterionResults,
    weighted_score: hasOverallScore(result) ? result.overallScore : null,
    passed: result.passed,
    human_review_required: result.humanReviewRequired === true,
    ...(result.humanReviewRequired === true
      ? { human_review_reasons: result.humanReviewReasons ?? [] }
      : {}),
    registry_version: catalog.registryVersion,
    feedback_summary: rubricFeedback(catalog, result),
    evaluated_at: result.timestamp,
    evaluated_by: labels.evaluatedBy,
    warnings: unique(result.warnings),
  });
}

/**
 * Levels rubrics on the pipeline: a function or schema that fails gives level `error`, an
 * llm_decode criterion without a usable answer `unable_to_evaluate`; neither enters the score.
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

  /** Evaluates `target` against the rubric (the `rubricRegistry`'s active version, if it has one). */
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
