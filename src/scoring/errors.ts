import { EvalgateError, errorGuard } from "../errors.js";

/** Where a scoring problem is: catalog, criterion and field, as far as known. */
export interface ScoringErrorLocation {
  catalogId?: string;
  criterionId?: string;
  field?: string;
}

/** `catalog 'ifb_profi' › criterion 'c2' › score` (the parts that are known). */
function formatScoringLocation(location: ScoringErrorLocation): string {
  const parts: string[] = [];
  if (location.catalogId !== undefined) parts.push(`catalog '${location.catalogId}'`);
  if (location.criterionId !== undefined) parts.push(`criterion '${location.criterionId}'`);
  if (location.field !== undefined) parts.push(location.field);
  return parts.length > 0 ? parts.join(" › ") : "scoring";
}

const SCORING_ERROR_CODES = [
  "SCORING_FAILED",
  "SCALE_INVALID",
  "LEVEL_UNKNOWN",
  "RESULT_INCONSISTENT",
  "CRITERION_RESULTS_MISMATCH",
  "CORRECTION_INVALID",
] as const;
export type ScoringErrorCode = (typeof SCORING_ERROR_CODES)[number];

/** An error of the pure scoring functions; `code` says what (docs/errors.md lists each). */
export class ScoringError extends EvalgateError<ScoringErrorCode> {
  constructor(
    /** What is wrong, without the location. */
    readonly detail: string,
    readonly location: ScoringErrorLocation,
    options: { code?: ScoringErrorCode } = {},
  ) {
    const code = options.code ?? "SCORING_FAILED";
    super(code, `${formatScoringLocation(location)}: ${detail}`);
  }
}

/** A level id that the criterion does not define. */
export class UnknownLevelError extends ScoringError {
  constructor(
    readonly levelId: string,
    readonly knownLevels: readonly string[],
    location: ScoringErrorLocation,
  ) {
    super(
      `unknown level '${levelId}'; expected one of ${knownLevels.map((l) => `'${l}'`).join(", ")}`,
      location,
      { code: "LEVEL_UNKNOWN" },
    );
  }
}

export const isScoringError = errorGuard<ScoringError>(...SCORING_ERROR_CODES);
export const isCorrectionInvalidError = errorGuard<ScoringError>("CORRECTION_INVALID");
