import { z } from "zod";
import { CriterionResultSchema } from "./result.js";

/**
 * What one way of scoring a criterion (judge answer, point function, JSON Schema) found, before it
 * is weighed against thresholds: the judged fields of a CriterionResult, with the judge's quotes
 * as it wrote them (they are checked against the content later). `evaluated: false` (with
 * `judgeError`) means no usable answer: the criterion is reported as not evaluated, never as a
 * zero and never as a pass.
 */
export const CriterionOutcomeSchema = CriterionResultSchema.pick({
  evaluated: true,
  score: true,
  native: true,
  level: true,
  reasoning: true,
  hits: true,
  misses: true,
  evidence: true,
  judgeError: true,
  scoreMethod: true,
  scoreMethodReason: true,
}).extend({ quotes: z.array(z.string()).optional() });
export type CriterionOutcome = z.infer<typeof CriterionOutcomeSchema>;
