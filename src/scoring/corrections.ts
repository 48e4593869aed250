/**
 * A reviewer's correction of a criterion's score, as a reviewer gives it — on the criterion's own
 * scale — and as it is kept: on the 0–1 scale of the result, checked against the evaluation the
 * reviewer saw.
 */
import { z } from "zod";
import { UNIT_SCALE } from "../criteria/model.js";
import type { ScoreCorrection } from "./calibrationLabel.js";
import { ScoringError } from "./errors.js";
import type { CriterionResult, EvaluationResult } from "./result.js";
import { roundScore, toUnit } from "./scale.js";

/** Most corrections one decision may carry. */
export const MAX_CORRECTIONS = 200;

/**
 * One correction as a reviewer sends it with a decision, on the criterion's own scale: `score`
 * for a scored criterion (2 on a 1–5 criterion, 0.4 on a 0–1 one), `level` for a criterion decided
 * on levels (a level id) or a pass/fail check (`pass` or `fail`).
 */
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
  /** The reviewer's value on the criterion's own scale (2 on 1–5, a level id, pass/fail). */
  native: number | string;
}

function scaleText(scale: { min: number; max: number }): string {
  return `${scale.min}–${scale.max}`;
}

/** A correction that does not fit the evaluation (`CORRECTION_INVALID`), naming where. */
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

/** The 0–1 score a correction stands for, checked against the criterion's scale or levels. */
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

/**
 * The reviewer's corrections on the 0–1 scale, checked against the evaluation they correct: every
 * criterion must be one of its criteria (once), every score on that criterion's scale, every level
 * one it defines. Throws a CORRECTION_INVALID ScoringError naming the criterion and what is wrong.
 */
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
