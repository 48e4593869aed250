import { EvalgateError, errorGuard } from "../errors.js";
import { isModelAbortedError, isModelCallError, type ModelCallError } from "../llm/errors.js";

/**
 * The evaluation as a whole could not be made: every model call failed (the model is down, timed
 * out, rate-limited or refused), or the input cannot be evaluated. Per-criterion judge errors are
 * not thrown: they are reported on the criterion.
 */
export class EvaluationError extends EvalgateError {
  override readonly name: string = "EvaluationError";
  readonly kind: "model" | "input";

  constructor(kind: "model" | "input", message: string, options: { cause?: unknown } = {}) {
    super("EVALUATION_FAILED", message, options);
    this.kind = kind;
  }
}

/** No judge call succeeded: the cause is the typed model error (timeout, unavailable, …). */
export class EvaluationModelError extends EvaluationError {
  override readonly name = "EvaluationModelError";
  override readonly code = "EVALUATION_MODEL_FAILED";
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
 * The content is over the content budget (the most bytes that fit the judge's context window
 * beside the prompt and the answer): refused before any model call, with both sizes named.
 */
export class ContentTooLargeError extends EvalgateError {
  override readonly name = "ContentTooLargeError";

  constructor(
    /** The content's size in bytes (structured content as its JSON text). */
    readonly sizeBytes: number,
    /** The budget it is over. */
    readonly budgetBytes: number,
    what = "the content",
  ) {
    const shown = (n: number) => `${n.toLocaleString("en-US")} bytes`;
    super(
      "CONTENT_TOO_LARGE",
      `${what} is ${shown(sizeBytes)}, over the content budget of ${shown(budgetBytes)} that fits the judge's context window (raise maxContentBytes for a model with a larger context, or split the content)`,
    );
  }
}

/**
 * The typed model error a judge call failed with (timeout, unavailable, refused, …), for the
 * caller to report; an abort, or anything that is not a model error, is thrown on as it is.
 */
export function judgeCallError(error: unknown): ModelCallError {
  if (isModelAbortedError(error) || !isModelCallError(error)) throw error;
  return error;
}

/**
 * A funding project that cannot be evaluated: its id is not a plain folder name, its folder does
 * not exist, or it holds no documents. Names the project and the folder tried.
 */
export class ProjectError extends EvalgateError {
  override readonly name: string = "ProjectError";

  constructor(
    /** The project id as given. */
    readonly projectId: string,
    /** The folder looked in (absolute). */
    readonly folder: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super("PROJECT_INVALID", `project '${projectId}' (${folder}): ${reason}`, options);
  }
}

/** The project folder does not exist under the data directory (or is not a folder). */
export class ProjectNotFoundError extends ProjectError {
  override readonly name = "ProjectNotFoundError";
  override readonly code = "PROJECT_NOT_FOUND";

  constructor(projectId: string, folder: string, options?: { cause?: unknown }) {
    super(projectId, folder, "no such project folder", options);
  }
}

/** The project folder holds no .md, .txt or .json document, so there is no evidence to judge. */
export class EmptyProjectError extends ProjectError {
  override readonly name = "EmptyProjectError";
  override readonly code = "PROJECT_EMPTY";

  constructor(projectId: string, folder: string) {
    super(projectId, folder, "the folder holds no documents (.md, .txt or .json)");
  }
}

/** A project id that is not a single folder name (empty, a path, `..`). */
export class InvalidProjectIdError extends ProjectError {
  override readonly name = "InvalidProjectIdError";
  override readonly code = "PROJECT_ID_INVALID";

  constructor(projectId: string, folder: string) {
    super(projectId, folder, "a project id is one folder name, without '/', '\\' or '..'");
  }
}

/** The codes of the evaluation engine's errors, one per class. */
export const ENGINE_ERROR_CODES = [
  "EVALUATION_FAILED",
  "EVALUATION_MODEL_FAILED",
  "PROJECT_INVALID",
  "PROJECT_NOT_FOUND",
  "PROJECT_EMPTY",
  "PROJECT_ID_INVALID",
  "CONTENT_TOO_LARGE",
] as const;

export const isEvaluationError = errorGuard<EvaluationError>(
  "EVALUATION_FAILED",
  "EVALUATION_MODEL_FAILED",
);
export const isEvaluationModelError = errorGuard<EvaluationModelError>("EVALUATION_MODEL_FAILED");
export const isProjectError = errorGuard<ProjectError>(
  "PROJECT_INVALID",
  "PROJECT_NOT_FOUND",
  "PROJECT_EMPTY",
  "PROJECT_ID_INVALID",
);
export const isContentTooLargeError = errorGuard<ContentTooLargeError>("CONTENT_TOO_LARGE");
export const isProjectNotFoundError = errorGuard<ProjectNotFoundError>("PROJECT_NOT_FOUND");
export const isEmptyProjectError = errorGuard<EmptyProjectError>("PROJECT_EMPTY");
export const isInvalidProjectIdError = errorGuard<InvalidProjectIdError>("PROJECT_ID_INVALID");
