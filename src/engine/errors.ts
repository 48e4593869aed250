import { z } from "zod";
import { EvalgateError, errorGuard } from "../errors.js";
import { isModelAbortedError, isModelCallError, type ModelCallError } from "../llm/errors.js";
import type { EvaluationResult } from "../scoring/result.js";

/** The evaluation as a whole could not be made; per-criterion judge errors are not thrown. */
export class EvaluationError extends EvalgateError {
  constructor(
    readonly kind: "model" | "input",
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super("EVALUATION_FAILED", message, options);
  }
}

/** A value checked against its schema; a bad one is an input EvaluationError naming every problem. */
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

/** No judge call succeeded; from evaluateContent, `result` holds the deterministic criteria. */
export class EvaluationModelError extends EvaluationError {
  override readonly code = "EVALUATION_MODEL_FAILED";
  readonly criterionIds: readonly string[];

  constructor(
    readonly modelError: ModelCallError,
    failedCriteria: readonly string[],
    readonly result?: EvaluationResult,
  ) {
    super(
      "model",
      `the judge model could not answer (${failedCriteria.length} criteria): ${modelError.message}`,
      { cause: modelError },
    );
    this.criterionIds = [...failedCriteria];
  }
}

/** The content is over the content budget: refused before any model call. */
export class ContentTooLargeError extends EvalgateError {
  constructor(
    readonly sizeBytes: number,
    readonly budgetBytes: number,
    /** What is over the budget: "the content", a project folder's text, … */
    readonly what = "the content",
  ) {
    const shown = (n: number) => `${n.toLocaleString("en-US")} bytes`;
    super(
      "CONTENT_TOO_LARGE",
      `${what} is ${shown(sizeBytes)}, over the content budget of ${shown(budgetBytes)} that fits the judge's context window (raise maxContentBytes for a model with a larger context, or split the content)`,
    );
  }
}

/** The typed model error a judge call failed with; an abort or any other error is rethrown. */
export function judgeCallError(error: unknown): ModelCallError {
  if (isModelAbortedError(error) || !isModelCallError(error)) throw error;
  return error;
}

const PROJECT_ERROR_CODES = [
  "PROJECT_INVALID",
  "PROJECT_NOT_FOUND",
  "PROJECT_EMPTY",
  "PROJECT_ID_INVALID",
] as const;
type ProjectErrorCode = (typeof PROJECT_ERROR_CODES)[number];

/** A funding project that cannot be evaluated, naming the project and the folder tried. */
export class ProjectError extends EvalgateError<ProjectErrorCode> {
  constructor(
    readonly projectId: string,
    /** Absolute. */
    readonly folder: string,
    reason: string,
    options: { cause?: unknown; code?: ProjectErrorCode } = {},
  ) {
    const code = options.code ?? "PROJECT_INVALID";
    super(code, `project '${projectId}' (${folder}): ${reason}`, options);
  }
}

const projectError =
  (code: ProjectErrorCode, reason: string) =>
  (projectId: string, folder: string): ProjectError =>
    new ProjectError(projectId, folder, reason, { code });

export const projectNotFound = projectError("PROJECT_NOT_FOUND", "no such project folder");
export const emptyProject = projectError(
  "PROJECT_EMPTY",
  "the folder holds no documents (.md, .txt or .json)",
);
export const invalidProjectId = projectError(
  "PROJECT_ID_INVALID",
  "a project id is one folder name, without '/', '\\' or '..'",
);

export const isEvaluationError = errorGuard<EvaluationError>(
  "EVALUATION_FAILED",
  "EVALUATION_MODEL_FAILED",
);
export const isEvaluationModelError = errorGuard<EvaluationModelError>("EVALUATION_MODEL_FAILED");
