import { z } from "zod";
import { EvalgateError, errorGuard } from "../errors.js";
import { isModelAbortedError, isModelCallError, type ModelCallError } from "../llm/errors.js";
import type { EvaluationResult } from "../scoring/result.js";

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

/**
 * Checks a value handed to the pipeline or one of its fronts against its schema. A bad value is
 * an input EvaluationError naming what was given and every problem with where it is.
 *
 * @example
 * const settings = parseInput(SettingsSchema, options, "CriteriaEngine options");
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  what: string,
): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new EvaluationError("input", `invalid ${what}:\n${z.prettifyError(parsed.error)}`, {
    cause: parsed.error,
  });
}

/**
 * No judge call succeeded: the cause is the typed model error (timeout, unavailable, …). From
 * evaluateContent it carries the result all the same (`result`): each LLM criterion a judge
 * error, the deterministic criteria evaluated.
 */
export class EvaluationModelError extends EvaluationError {
  override readonly name = "EvaluationModelError";
  override readonly code = "EVALUATION_MODEL_FAILED";
  readonly modelError: ModelCallError;
  /** The criteria whose calls failed. */
  readonly criterionIds: readonly string[];
  readonly result: EvaluationResult | undefined;

  constructor(
    modelError: ModelCallError,
    failedCriteria: readonly string[],
    result?: EvaluationResult,
  ) {
    super(
      "model",
      `the judge model could not answer (${failedCriteria.length} criteria): ${modelError.message}`,
      { cause: modelError },
    );
    this.modelError = modelError;
    this.criterionIds = [...failedCriteria];
    this.result = result;
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

/** The codes of a funding project that cannot be evaluated. */
export const PROJECT_ERROR_CODES = [
  "PROJECT_INVALID",
  "PROJECT_NOT_FOUND",
  "PROJECT_EMPTY",
  "PROJECT_ID_INVALID",
] as const;
export type ProjectErrorCode = (typeof PROJECT_ERROR_CODES)[number];

/**
 * A funding project that cannot be evaluated; `code` says why: its id is not a plain folder name
 * (`PROJECT_ID_INVALID`), its folder does not exist (`PROJECT_NOT_FOUND`), or it holds no
 * documents (`PROJECT_EMPTY`); `PROJECT_INVALID` when none is given. Names the project and the
 * folder tried.
 */
export class ProjectError extends EvalgateError<ProjectErrorCode> {
  override name = "ProjectError";

  constructor(
    /** The project id as given. */
    readonly projectId: string,
    /** The folder looked in (absolute). */
    readonly folder: string,
    reason: string,
    options: { cause?: unknown; code?: ProjectErrorCode } = {},
  ) {
    const code = options.code ?? "PROJECT_INVALID";
    super(code, `project '${projectId}' (${folder}): ${reason}`, options);
  }
}

/** The project folder does not exist under the data directory, or is not a folder. */
export function projectNotFound(
  projectId: string,
  folder: string,
  options: { cause?: unknown } = {},
): ProjectError {
  return new ProjectError(projectId, folder, "no such project folder", {
    ...options,
    code: "PROJECT_NOT_FOUND",
  });
}

/** The project folder holds no .md, .txt or .json document, so there is no evidence to judge. */
export function emptyProject(projectId: string, folder: string): ProjectError {
  return new ProjectError(projectId, folder, "the folder holds no documents (.md, .txt or .json)", {
    code: "PROJECT_EMPTY",
  });
}

/** A project id that is not a single folder name (empty, a path, `..`). */
export function invalidProjectId(projectId: string, folder: string): ProjectError {
  return new ProjectError(
    projectId,
    folder,
    "a project id is one folder name, without '/', '\\' or '..'",
    { code: "PROJECT_ID_INVALID" },
  );
}

/** The codes of the evaluation engine's errors, one per class. */
export const ENGINE_ERROR_CODES = [
  "EVALUATION_FAILED",
  "EVALUATION_MODEL_FAILED",
  ...PROJECT_ERROR_CODES,
  "CONTENT_TOO_LARGE",
] as const;

export const isEvaluationError = errorGuard<EvaluationError>(
  "EVALUATION_FAILED",
  "EVALUATION_MODEL_FAILED",
);
export const isEvaluationModelError = errorGuard<EvaluationModelError>("EVALUATION_MODEL_FAILED");
export const isProjectError = errorGuard<ProjectError>(...PROJECT_ERROR_CODES);
export const isContentTooLargeError = errorGuard<ContentTooLargeError>("CONTENT_TOO_LARGE");
export const isProjectNotFoundError = errorGuard<ProjectError>("PROJECT_NOT_FOUND");
export const isEmptyProjectError = errorGuard<ProjectError>("PROJECT_EMPTY");
export const isInvalidProjectIdError = errorGuard<ProjectError>("PROJECT_ID_INVALID");
