import { EvalgateError, errorGuard } from "../errors.js";

/**
 * Where a scoring problem is: the catalog (when known), the criterion (when known) and the field
 * of the criterion result or outcome that is wrong.
 */
export interface ScoringErrorLocation {
  catalogId?: string;
  criterionId?: string;
  field?: string;
}

/** `catalog 'ifb_profi' › criterion 'c2' › score` (the parts that are known). */
export function formatScoringLocation(location: ScoringErrorLocation): string {
  const parts: string[] = [];
  if (location.catalogId !== undefined) parts.push(`catalog '${location.catalogId}'`);
  if (location.criterionId !== undefined) parts.push(`criterion '${location.criterionId}'`);
  if (location.field !== undefined) parts.push(location.field);
  return parts.length > 0 ? parts.join(" › ") : "scoring";
}

/** Base class of the errors raised by the pure scoring functions. */
export class ScoringError extends EvalgateError {
  override name = "ScoringError";
  readonly location: ScoringErrorLocation;
  /** What is wrong, without the location. */
  readonly detail: string;

  constructor(detail: string, location: ScoringErrorLocation) {
    super("SCORING_FAILED", `${formatScoringLocation(location)}: ${detail}`);
    this.location = location;
    this.detail = detail;
  }
}

/** A value that cannot be put on (or taken off) a scale: not finite, or a broken scale. */
export class ScaleError extends ScoringError {
  override name = "ScaleError";
  override readonly code = "SCALE_INVALID";
}

/** A level id that the criterion does not define. */
export class UnknownLevelError extends ScoringError {
  override name = "UnknownLevelError";
  override readonly code = "LEVEL_UNKNOWN";
  readonly levelId: string;
  readonly knownLevels: readonly string[];

  constructor(levelId: string, knownLevels: readonly string[], location: ScoringErrorLocation) {
    super(
      `unknown level '${levelId}'; expected one of ${knownLevels.map((l) => `'${l}'`).join(", ")}`,
      location,
    );
    this.levelId = levelId;
    this.knownLevels = knownLevels;
  }
}

/** A criterion result or outcome whose fields contradict each other (evaluated, score, met). */
export class InconsistentResultError extends ScoringError {
  override name = "InconsistentResultError";
  override readonly code = "RESULT_INCONSISTENT";
}

/** Criterion results that do not match the catalog: missing, unknown or duplicated ids. */
export class CriterionResultMismatchError extends ScoringError {
  override name = "CriterionResultMismatchError";
  override readonly code = "CRITERION_RESULTS_MISMATCH";
}

/**
 * A reviewer's correction of a criterion's score that does not fit the evaluation: an unknown
 * criterion, a score outside the criterion's scale, a level it does not define.
 */
export class CorrectionInvalidError extends ScoringError {
  override name = "CorrectionInvalidError";
  override readonly code = "CORRECTION_INVALID";
}

/** The codes of the scoring errors, one per class. */
export const SCORING_ERROR_CODES = [
  "SCORING_FAILED",
  "SCALE_INVALID",
  "LEVEL_UNKNOWN",
  "RESULT_INCONSISTENT",
  "CRITERION_RESULTS_MISMATCH",
  "CORRECTION_INVALID",
] as const;

export const isScoringError = errorGuard<ScoringError>(...SCORING_ERROR_CODES);
export const isScaleError = errorGuard<ScaleError>("SCALE_INVALID");
export const isUnknownLevelError = errorGuard<UnknownLevelError>("LEVEL_UNKNOWN");
export const isInconsistentResultError = errorGuard<InconsistentResultError>("RESULT_INCONSISTENT");
export const isCriterionResultMismatchError = errorGuard<CriterionResultMismatchError>(
  "CRITERION_RESULTS_MISMATCH",
);
export const isCorrectionInvalidError = errorGuard<CorrectionInvalidError>("CORRECTION_INVALID");
