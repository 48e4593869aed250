import { z } from "zod";

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
  feedback_summary: z.string(),
  evaluated_at: z.string(),
  evaluated_by: z.string(),
  /** What loading or evaluating doubted (weights normalised, criteria not evaluated, …). */
  warnings: z.array(z.string()),
});
export type RubricEvaluation = z.infer<typeof RubricEvaluationSchema>;
