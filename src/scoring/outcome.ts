import { z } from "zod";
import { NativeValueSchema } from "./result.js";
import { ScoreMethodSchema } from "./scoreMethod.js";

/**
 * What one way of scoring a criterion (judge answer, point function, JSON Schema) found, before it
 * is weighed against thresholds. `evaluated: false` (with `judgeError`) means no usable answer:
 * the criterion is reported as not evaluated, never as a zero and never as a pass.
 */
export const CriterionOutcomeSchema = z.object({
  evaluated: z.boolean(),
  /** 0–1, or null when not evaluated. */
  score: z.number().min(0).max(1).nullable(),
  /** On the criterion's own scale: 4 (1–5), "pass"/"fail", a level id; null when not evaluated. */
  native: NativeValueSchema,
  level: z.string().optional(),
  reasoning: z.string(),
  hits: z.array(z.string()).default([]),
  misses: z.array(z.string()).default([]),
  evidence: z.array(z.string()).default([]),
  /** What the judge quoted from the content for its verdict, as it wrote it. */
  quotes: z.array(z.string()).optional(),
  judgeError: z.string().optional(),
  /** How the score was read, when probability-weighted scores were asked for. */
  scoreMethod: ScoreMethodSchema.optional(),
  scoreMethodReason: z.string().optional(),
});
export type CriterionOutcome = z.infer<typeof CriterionOutcomeSchema>;
