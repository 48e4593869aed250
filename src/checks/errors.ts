import { EvalgateError, errorGuard } from "../errors.js";

/** The codes of the deterministic checks' errors. */
export const CHECKS_ERROR_CODES = [
  "FUNCTION_UNRESOLVED",
  "CRITERION_METHOD_MISMATCH",
  "SCHEMA_UNREADABLE",
] as const;
export type CheckErrorCode = (typeof CHECKS_ERROR_CODES)[number];

/**
 * An error of the deterministic checks; `code` says what: a function reference nothing could
 * supply (`FUNCTION_UNRESOLVED`, FunctionResolutionError), a criterion handed to a runner of
 * another method (`CRITERION_METHOD_MISMATCH`), or a JSON Schema file that could not be read or
 * parsed (`SCHEMA_UNREADABLE`).
 */
export class CheckError extends EvalgateError<CheckErrorCode> {
  override name = "CheckError";
}

/** A function reference that no registration, built-in or import could supply. */
export class FunctionResolutionError extends CheckError {
  override name = "FunctionResolutionError";
  constructor(
    /** The reference as written in the criterion, e.g. "scoring:check_question_count". */
    readonly ref: string,
    /** Every place looked in, in order, with why it did not supply the function. */
    readonly tried: readonly string[],
  ) {
    super("FUNCTION_UNRESOLVED", `Cannot resolve function '${ref}'. Tried: ${tried.join("; ")}`);
  }
}

/** A criterion handed to a runner that scores a different method kind (`CRITERION_METHOD_MISMATCH`). */
export function criterionMethodMismatch(
  criterionId: string,
  expected: string,
  actual: string,
): CheckError {
  return new CheckError(
    "CRITERION_METHOD_MISMATCH",
    `Criterion '${criterionId}': expected a '${expected}' method, got '${actual}'`,
  );
}

/** A JSON Schema file named by a schemaRef that could not be read or parsed (`SCHEMA_UNREADABLE`). */
export function schemaUnreadable(schemaRef: string, path: string, reason: string): CheckError {
  return new CheckError(
    "SCHEMA_UNREADABLE",
    `Cannot load JSON Schema '${schemaRef}' (${path}): ${reason}`,
  );
}

export const isFunctionResolutionError = errorGuard<FunctionResolutionError>("FUNCTION_UNRESOLVED");
export const isCriterionMethodError = errorGuard<CheckError>("CRITERION_METHOD_MISMATCH");
export const isSchemaLoadError = errorGuard<CheckError>("SCHEMA_UNREADABLE");
