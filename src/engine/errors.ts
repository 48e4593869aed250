import { ModelAbortedError, ModelCallError } from "../llm/errors.js";

/**
 * The evaluation as a whole could not be made: every model call failed (the model is down, timed
 * out, rate-limited or refused), or the input cannot be evaluated. Per-criterion judge errors are
 * not thrown: they are reported on the criterion.
 */
export class EvaluationError extends Error {
  override readonly name: string = "EvaluationError";
  readonly kind: "model" | "input";

  constructor(kind: "model" | "input", message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

/** No judge call succeeded: the cause is the typed model error (timeout, unavailable, …). */
export class EvaluationModelError extends EvaluationError {
  override readonly name = "EvaluationModelError";
  readonly modelError: ModelCallError;

  constructor(modelError: ModelCallError, failedCriteria: readonly string[]) {
    super(
      "model",
      `the judge model could not answer (${failedCriteria.length} criteria): ${modelError.message}`,
      { cause: modelError },
    );
    this.modelError = modelError;
  }
}

/**
 * The typed model error a judge call failed with (timeout, unavailable, refused, …), for the
 * caller to report; an abort, or anything that is not a model error, is thrown on as it is.
 */
export function judgeCallError(error: unknown): ModelCallError {
  if (error instanceof ModelAbortedError || !(error instanceof ModelCallError)) throw error;
  return error;
}
