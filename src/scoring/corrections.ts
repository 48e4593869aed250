/**
 * A reviewer's correction of a criterion's score: given on the criterion's own scale, kept on the
 * result's 0–1 scale beside the judge's, checked against the evaluation the reviewer saw.
 */
import { z } from "zod";
import { UNIT_SCALE } from "../criteria/model.js";
import type { ScoreCorrection } from "./calibrationLabel.js";
import { isCorrectionInvalidError, ScoringError } from "./errors.js";
import type { CriterionResult, EvaluationResult } from "./result.js";
import { roundScore, toUnit } from "./scale.js";

/** Most corrections one decision may carry. */
export const MAX_CORRECTIONS = 200;

/** One correction on the criterion's own scale: `score` (2 on 1–5), or `level` (an id, pass/fail). */
export const CorrectionInputSchema = z
  .strictObject({
    criterionId: z.string().min(1).max(200),
    score: z.number().finite().optional(),
    level: z.string().min(1).max(200).optional(),
    note: z.string().max(2000).optional(),
  })
  .refine((c) => (c.score === undefined) !== (c.level === undefined), {
    message: "give either score (on the criterion's own scale) or level (a level id, or pass/fail)",
  });
export type CorrectionInput = z.infer<typeof CorrectionInputSchema>;

/** A correction checked against the evaluation: the 0–1 score and the value the reviewer gave. */
export interface ResolvedCorrection extends ScoreCorrection {
  native: number | string;
}

function scaleText(scale: { min: number; max: number }): string {
  return `${scale.min}–${scale.max}`;
}

function invalid(message: string, at: { criterionId?: string; field?: string }): ScoringError {
  return new ScoringError(message, at, { code: "CORRECTION_INVALID" });
}

function unitOfScore(criterion: CriterionResult, score: number): number {
  const at = { criterionId: criterion.id, field: "score" };
  const scale = criterion.scale ?? UNIT_SCALE;
  if (score < scale.min || score > scale.max) {
    throw invalid(`${score} is outside the criterion's scale ${scaleText(scale)}`, at);
  }
  if (scale.integer === true && !Number.isInteger(score)) {
    throw invalid(`${score} is not a whole number on the scale ${scaleText(scale)}`, at);
  }
  return toUnit(score, scale, at);
}

function unitOfLevel(criterion: CriterionResult, level: string): number {
  const at = { criterionId: criterion.id, field: "level" };
  if (criterion.method === "check") {
    if (level === "pass" || level === "fail") return level === "pass" ? 1 : 0;
    throw invalid(`a pass/fail check takes pass or fail, not '${level}'`, at);
  }
  const levels = criterion.levels ?? [];
  const found = levels.find((l) => l.id === level);
  if (found !== undefined) return roundScore(found.score);
  const known = levels.map((l) => `'${l.id}'`).join(", ");
  throw invalid(
    levels.length === 0
      ? `the criterion is scored, not decided on levels: give a score on ${scaleText(criterion.scale ?? UNIT_SCALE)}`
      : `unknown level '${level}'; expected one of ${known}`,
    at,
  );
}

function unitOf(criterion: CriterionResult, input: CorrectionInput): number {
  if (input.level !== undefined) return unitOfLevel(criterion, input.level);
  if (criterion.method === "check" || (criterion.levels?.length ?? 0) > 0) {
    const choices =
      criterion.method === "check"
        ? "pass or fail"
        : (criterion.levels ?? []).map((l) => l.id).join(", ");
    throw invalid(`give a level (${choices}), not a score`, {
      criterionId: criterion.id,
      field: "score",
    });
  }
  return unitOfScore(criterion, input.score ?? Number.NaN);
}

/** The corrections on the 0–1 scale; a misfit is a CORRECTION_INVALID naming the criterion. */
export function resolveCorrections(
  evaluation: EvaluationResult | null,
  inputs: readonly CorrectionInput[],
): ResolvedCorrection[] {
  if (inputs.length === 0) return [];
  if (evaluation === null) {
    throw invalid("this review has no evaluation whose scores could be wrong", {
      field: "corrections",
    });
  }
  const seen = new Set<string>();
  return inputs.map((input) => {
    const { criterionId } = input;
    const criterion = evaluation.criteria.find((c) => c.id === criterionId);
    if (criterion === undefined) {
      const known = evaluation.criteria.map((c) => `'${c.id}'`).join(", ");
      throw invalid(`no such criterion in this evaluation (it has ${known})`, { criterionId });
    }
    if (seen.has(criterionId)) throw invalid("corrected twice in one decision", { criterionId });
    seen.add(criterionId);
    const note = input.note?.trim();
    return {
      criterionId,
      score: unitOf(criterion, input),
      native: input.level ?? input.score ?? 0,
      ...(note === undefined || note === "" ? {} : { note }),
    };
  });
}

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

/** The corrections resolved against the evaluation, or the issue that refuses them. */
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

/** Resolved corrections as the history keeps them, the judge's score beside the reviewer's. */
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
