import { EvalgateError, errorGuard } from "../errors.js";

/** A function reference that no registration, built-in or import could supply. */
export class FunctionResolutionError extends EvalgateError {
  override readonly name = "FunctionResolutionError";
  override readonly code = "FUNCTION_UNRESOLVED";
  constructor(
    /** The reference as written in the criterion, e.g. "scoring:check_question_count". */
    readonly ref: string,
    /** Every place looked in, in order, with why it did not supply the function. */
    readonly tried: readonly string[],
  ) {
    super("FUNCTION_UNRESOLVED", `Cannot resolve function '${ref}'. Tried: ${tried.join("; ")}`);
  }
}

/** A criterion handed to a runner that scores a different method kind. */
export class CriterionMethodError extends EvalgateError {
  override readonly name = "CriterionMethodError";
  override readonly code = "CRITERION_METHOD_MISMATCH";
  constructor(
    readonly criterionId: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      "CRITERION_METHOD_MISMATCH",
      `Criterion '${criterionId}': expected a '${expected}' method, got '${actual}'`,
    );
  }
}

/** A JSON Schema file named by a schemaRef that could not be read or parsed. */
export class SchemaLoadError extends EvalgateError {
  override readonly name = "SchemaLoadError";
  override readonly code = "SCHEMA_UNREADABLE";
  constructor(
    readonly schemaRef: string,
    readonly path: string,
    readonly reason: string,
  ) {
    super("SCHEMA_UNREADABLE", `Cannot load JSON Schema '${schemaRef}' (${path}): ${reason}`);
  }
}

/** The codes of the deterministic checks' errors, one per class. */
export const CHECKS_ERROR_CODES = [
  "FUNCTION_UNRESOLVED",
  "CRITERION_METHOD_MISMATCH",
  "SCHEMA_UNREADABLE",
] as const;

export const isFunctionResolutionError = errorGuard<FunctionResolutionError>("FUNCTION_UNRESOLVED");
export const isCriterionMethodError = errorGuard<CriterionMethodError>("CRITERION_METHOD_MISMATCH");
export const isSchemaLoadError = errorGuard<SchemaLoadError>("SCHEMA_UNREADABLE");
