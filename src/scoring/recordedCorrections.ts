/**
 * A reviewer's corrections as a decision keeps them: checked against the evaluation the reviewer
 * saw (an issue naming the correction at fault when one is wrong), and recorded with the judge's
 * score beside the reviewer's, for the thread's history.
 */
import { z } from "zod";
import {
  type CorrectionInput,
  type ResolvedCorrection,
  resolveCorrections,
} from "./corrections.js";
import { isCorrectionInvalidError } from "./errors.js";
import type { EvaluationResult } from "./result.js";

/** A criterion a reviewer marked wrong with a decision: the judge's score and the reviewer's. */
export const RecordedCorrectionSchema = z.object({
  criterionId: z.string(),
  criterionTitle: z.string(),
  /** 0–1, null when the judge gave none. */
  judgeScore: z.number().nullable(),
  judgeNative: z.union([z.number(), z.string()]).nullable().optional(),
  /** 0–1. */
  reviewerScore: z.number(),
  reviewerNative: z.union([z.number(), z.string()]).optional(),
  note: z.string().optional(),
});
export type RecordedCorrection = z.infer<typeof RecordedCorrectionSchema>;

/** A problem with one correction: where (`corrections.<i>.<field>`) and what. */
export interface CorrectionIssue {
  field: string;
  message: string;
}

/**
 * The corrections resolved against the evaluation, or the issue that refuses them (the index of
 * the correction and its field, with the message naming the criterion).
 */
export function checkedCorrections(
  evaluation: EvaluationResult | null,
  inputs: readonly CorrectionInput[] | undefined,
): { corrections: ResolvedCorrection[] } | { issue: CorrectionIssue } {
  try {
    return { corrections: resolveCorrections(evaluation, inputs ?? []) };
  } catch (error) {
    if (!isCorrectionInvalidError(error)) throw error;
    const { criterionId, field } = error.location;
    const index = (inputs ?? []).findIndex((c) => c.criterionId === criterionId);
    const where = index < 0 ? "corrections" : `corrections.${index}.${field ?? "criterionId"}`;
    return { issue: { field: where, message: error.message } };
  }
}

/**
 * Resolved corrections as the history keeps them: each criterion's title and the judge's score
 * (0–1 and on its own scale) beside the reviewer's.
 */
export function recordedCorrections(
  evaluation: EvaluationResult,
  corrections: readonly ResolvedCorrection[],
): RecordedCorrection[] {
  const byId = new Map(evaluation.criteria.map((c) => [c.id, c]));
  return corrections.flatMap((correction) => {
    const criterion = byId.get(correction.criterionId);
    if (criterion === undefined) return [];
    const recorded: RecordedCorrection = {
      criterionId: criterion.id,
      criterionTitle: criterion.title,
      judgeScore: criterion.score,
      reviewerScore: correction.score,
      reviewerNative: correction.native,
    };
    if (criterion.native !== undefined) recorded.judgeNative = criterion.native;
    if (correction.note !== undefined) recorded.note = correction.note;
    return [recorded];
  });
}
