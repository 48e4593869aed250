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

export const CorrectionInputListSchema = z.array(CorrectionInputSchema).max(MAX_CORRECTIONS);

/** A correction checked against the evaluation: the 0–1 score and the value the reviewer gave. */
export interface ResolvedCorrection extends ScoreCorrection {
  /** The reviewer's value on the criterion's own scale (2 on 1–5, a level id, pass/fail). */
  native: number | string;
}

function scaleText(scale: { min: number; max: number }): string {
  return `${scale.min}–${scale.max}`;
}

function unitOfScore(criterion: CriterionResult, score: number): number {
  const at = { criterionId: criterion.id, field: "score" };
  const scale = criterion.scale ?? UNIT_SCALE;
  if (score < scale.min || score > scale.max) {
    throw new ScoringError(`${score} is outside the criterion's scale ${scaleText(scale)}`, at, {
      code: "CORRECTION_INVALID",
    });
  }
  if (scale.integer === true && !Number.isInteger(score)) {
    throw new ScoringError(`${score} is not a whole number on the scale ${scaleText(scale)}`, at, {
      code: "CORRECTION_INVALID",
    });
  }
  return toUnit(score, scale, at);
}

function unitOfLevel(criterion: CriterionResult, level: string): number {
  const at = { criterionId: criterion.id, field: "level" };
  if (criterion.method === "check") {
    if (level === "pass" || level === "fail") return level === "pass" ? 1 : 0;
    throw new ScoringError(`a pass/fail check takes pass or fail, not '${level}'`, at, {
      code: "CORRECTION_INVALID",
    });
  }
  const levels = criterion.levels ?? [];
  const found = levels.find((l) => l.id === level);
  if (found !== undefined) return roundScore(found.score);
  const known = levels.map((l) => `'${l.id}'`).join(", ");
  throw new ScoringError(
    levels.length === 0
      ? `the criterion is scored, not decided on levels: give a score on ${scaleText(criterion.scale ?? UNIT_SCALE)}`
      : `unknown level '${level}'; expected one of ${known}`,
    at,
    { code: "CORRECTION_INVALID" },
  );
}

/** The 0–1 score a correction stands for, checked against the criterion's scale or levels. */
function unitOf(criterion: CriterionResult, input: CorrectionInput): number {
  if (input.level !== undefined) return unitOfLevel(criterion, input.level);
  const score = input.score ?? Number.NaN;
  if (criterion.method === "check" || (criterion.levels?.length ?? 0) > 0) {
    const choices =
      criterion.method === "check"
        ? "pass or fail"
        : (criterion.levels ?? []).map((l) => l.id).join(", ");
    throw new ScoringError(
      `give a level (${choices}), not a score`,
      {
        criterionId: criterion.id,
        field: "score",
      },
      { code: "CORRECTION_INVALID" },
    );
  }
  return unitOfScore(criterion, score);
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
    throw new ScoringError(
      "this review has no evaluation whose scores could be wrong",
      {
        field: "corrections",
      },
      { code: "CORRECTION_INVALID" },
    );
  }
  const seen = new Set<string>();
  return inputs.map((input) => {
    const criterion = evaluation.criteria.find((c) => c.id === input.criterionId);
    if (criterion === undefined) {
      const known = evaluation.criteria.map((c) => `'${c.id}'`).join(", ");
      throw new ScoringError(
        `no such criterion in this evaluation (it has ${known})`,
        {
          criterionId: input.criterionId,
        },
        { code: "CORRECTION_INVALID" },
      );
    }
    if (seen.has(criterion.id)) {
      throw new ScoringError(
        "corrected twice in one decision",
        {
          criterionId: criterion.id,
        },
        { code: "CORRECTION_INVALID" },
      );
    }
    seen.add(criterion.id);
    const note = input.note?.trim();
    return {
      criterionId: criterion.id,
      score: unitOf(criterion, input),
      native: input.level ?? input.score ?? 0,
      ...(note === undefined || note === "" ? {} : { note }),
    };
  });
}
