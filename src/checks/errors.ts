/** A function reference that no registration, built-in or import could supply. */
export class FunctionResolutionError extends Error {
  override readonly name = "FunctionResolutionError";
  constructor(
    /** The reference as written in the criterion, e.g. "scoring:check_question_count". */
    readonly ref: string,
    /** Every place looked in, in order, with why it did not supply the function. */
    readonly tried: readonly string[],
  ) {
    super(`Cannot resolve function '${ref}'. Tried: ${tried.join("; ")}`);
  }
}

/** A criterion handed to a runner that scores a different method kind. */
export class CriterionMethodError extends Error {
  override readonly name = "CriterionMethodError";
  constructor(
    readonly criterionId: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`Criterion '${criterionId}': expected a '${expected}' method, got '${actual}'`);
  }
}

/** A JSON Schema file named by a schemaRef that could not be read or parsed. */
export class SchemaLoadError extends Error {
  override readonly name = "SchemaLoadError";
  constructor(
    readonly schemaRef: string,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`Cannot load JSON Schema '${schemaRef}' (${path}): ${reason}`);
  }
}
