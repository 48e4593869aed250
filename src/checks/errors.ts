import { EvalgateError } from "../errors.js";

const CHECKS_ERROR_CODES = [
  "FUNCTION_UNRESOLVED",
  "CRITERION_METHOD_MISMATCH",
  "SCHEMA_UNREADABLE",
] as const;
export type CheckErrorCode = (typeof CHECKS_ERROR_CODES)[number];

/** An error of the deterministic checks; `code` says what (docs/errors.md). */
export class CheckError extends EvalgateError<CheckErrorCode> {}

export class FunctionResolutionError extends CheckError {
  constructor(
    readonly ref: string,
    readonly tried: readonly string[],
  ) {
    super("FUNCTION_UNRESOLVED", `Cannot resolve function '${ref}'. Tried: ${tried.join("; ")}`);
  }
}

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

export function schemaUnreadable(schemaRef: string, path: string, reason: string): CheckError {
  return new CheckError(
    "SCHEMA_UNREADABLE",
    `Cannot load JSON Schema '${schemaRef}' (${path}): ${reason}`,
  );
}
