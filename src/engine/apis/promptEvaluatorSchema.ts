import { z } from "zod";
import { TraceSchema } from "../../scoring/result.js";

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
