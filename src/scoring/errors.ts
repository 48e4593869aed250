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

/** The codes of the scoring errors. */
export const SCORING_ERROR_CODES = [
  "SCORING_FAILED",
  "SCALE_INVALID",
  "LEVEL_UNKNOWN",
  "RESULT_INCONSISTENT",
  "CRITERION_RESULTS_MISMATCH",
  "CORRECTION_INVALID",
] as const;
export type ScoringErrorCode = (typeof SCORING_ERROR_CODES)[number];

/**
 * An error of the pure scoring functions; `code` says what: `SCALE_INVALID` (a value that cannot
 * be put on or taken off a scale), `RESULT_INCONSISTENT` (a result's fields contradict each
 * other), `CRITERION_RESULTS_MISMATCH` (results that do not match the catalog: missing, unknown
 * or duplicated ids), `CORRECTION_INVALID` (a reviewer's correction that does not fit the
 * evaluation), `LEVEL_UNKNOWN` (UnknownLevelError), `SCORING_FAILED` when none is given.
 */
export class ScoringError extends EvalgateError<ScoringErrorCode> {
  override name = "ScoringError";
  readonly location: ScoringErrorLocation;
  /** What is wrong, without the location. */
  readonly detail: string;

  constructor(
    detail: string,
    location: ScoringErrorLocation,
    options: { code?: ScoringErrorCode } = {},
  ) {
    const code = options.code ?? "SCORING_FAILED";
    super(code, `${formatScoringLocation(location)}: ${detail}`);
    this.location = location;
    this.detail = detail;
  }
}

/** A level id that the criterion does not define. */
export class UnknownLevelError extends ScoringError {
  override name = "UnknownLevelError";
  readonly levelId: string;
  readonly knownLevels: readonly string[];

  constructor(levelId: string, knownLevels: readonly string[], location: ScoringErrorLocation) {
    super(
      `unknown level '${levelId}'; expected one of ${knownLevels.map((l) => `'${l}'`).join(", ")}`,
      location,
      { code: "LEVEL_UNKNOWN" },
    );
    this.levelId = levelId;
    this.knownLevels = knownLevels;
  }
}

export const isScoringError = errorGuard<ScoringError>(...SCORING_ERROR_CODES);
export const isUnknownLevelError = errorGuard<UnknownLevelError>("LEVEL_UNKNOWN");
export const isCorrectionInvalidError = errorGuard<ScoringError>("CORRECTION_INVALID");
