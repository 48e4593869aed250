/**
 * How a failed command ends: exit 2 and one redacted line ending with the error's code, the key to
 * docs/errors.md.
 */
import { CatalogError } from "../criteria/errors.js";
import { formatBytes } from "../engine/contentBudget.js";
import { ContentTooLargeError, isEvaluationModelError } from "../engine/errors.js";
import { type EvalgateError, isEvalgateError, withErrorCode } from "../errors.js";
import { isModelAbortedError, isModelCallError } from "../llm/errors.js";
import { redactSecretText } from "../redact.js";
import { RubricConfigError } from "../rubrics/errors.js";
import { displayPath } from "./displayPath.js";
import { EXIT_ERROR } from "./exitCodes.js";
import { explainModelFailure, type ModelTarget } from "./modelCheck.js";

/** The one line printed on stderr after `evalgate: `, without its code and trailing newline. */
type Message = (error: EvalgateError, cwd: string, target?: ModelTarget) => string;

const CANCELLED_MESSAGE = "cancelled: the evaluation was interrupted before it finished";

/** The error's own message: it already says what and where. */
const plain: Message = (error) => error.message;
/** The message after the error's kind: `ToonError: line 3: …`. */
const named: Message = (error) => `${error.name}: ${error.message}`;

const model: Message = (error, cwd, target) =>
  isEvaluationModelError(error) || isModelCallError(error)
    ? explainModelFailure(error, target).message
    : named(error, cwd);

const catalog: Message = (error, cwd) => {
  if (!(error instanceof CatalogError)) return `cannot use the catalog: ${error.message}`;
  const where = {
    source: displayPath(error.source, cwd),
    ...(error.line === undefined ? {} : { line: error.line }),
    ...(error.column === undefined ? {} : { column: error.column }),
    ...(error.path === undefined ? {} : { path: error.path }),
  };
  return `cannot use the catalog: ${CatalogError.format(error.detail, where)}`;
};

/** A rubric file's error, its path relative to the working folder. */
const rubricFile: Message = (error, cwd) =>
  error instanceof RubricConfigError
    ? `${displayPath(error.source, cwd)}: ${error.detail}`
    : error.message;

/** The pipeline's refusal of text over the budget, with the option that raises it. */
const contentBudget: Message = (error) =>
  error instanceof ContentTooLargeError
    ? `${error.what} is ${formatBytes(error.sizeBytes)}, over the content budget of ${formatBytes(error.budgetBytes)} that fits the judge's context window (raise it with --max-content-bytes, or split the content)`
    : error.message;

/** The codes whose line is not `<kind>: <message>`; every other code is shown by its kind. */
export const ERROR_MESSAGES: Readonly<Record<string, Message>> = {
  // A catalog that cannot be used: nothing was decided, whichever command met it.
  CATALOG_INVALID: catalog,
  CATALOG_NOT_FOUND: catalog,
  COMMAND_INVALID: plain,
  INPUT_FILE_UNREADABLE: plain,
  OUTPUT_FILE_UNWRITABLE: plain,
  MODEL_NOT_READY: plain,
  MODEL_OPTIONS_INVALID: plain,
  // The judge model (a cancelled call exits 130 only when the command itself was cancelled).
  MODEL_TIMEOUT: model,
  MODEL_RATE_LIMITED: model,
  MODEL_UNAVAILABLE: model,
  MODEL_REQUEST_REJECTED: model,
  MODEL_CONTENT_POLICY: model,
  MODEL_RESPONSE_UNUSABLE: model,
  MODEL_CALL_CANCELLED: () => CANCELLED_MESSAGE,
  PROVIDER_UNAVAILABLE: model,
  EVALUATION_MODEL_FAILED: model,
  // The embedded model: its runtime, a local model file, the download of the default model.
  EMBEDDED_RUNTIME_UNAVAILABLE: plain,
  MODEL_FILE_UNUSABLE: plain,
  MODEL_DOWNLOAD_FAILED: plain,
  CONTENT_TOO_LARGE: contentBudget,
  CORRECTION_INVALID: plain,
  INVALID_INPUT: plain,
  // The rubric and artifact registries: their messages say what and where.
  RUBRIC_NOT_FOUND: plain,
  RUBRIC_CONFIG_INVALID: rubricFile,
  ARTIFACT_NOT_FOUND: plain,
  ARTIFACT_REVIEW_FAILED: plain,
};

/** An AbortError from outside, or a model error that only says the call was cancelled. */
function isCancellation(error: unknown): boolean {
  if (isModelAbortedError(error)) return true;
  if (isEvaluationModelError(error)) return isModelAbortedError(error.modelError);
  return error instanceof Error && error.name === "AbortError";
}

function messageOf(error: unknown, cwd: string, target?: ModelTarget): string {
  if (isCancellation(error)) return withErrorCode(CANCELLED_MESSAGE, "MODEL_CALL_CANCELLED");
  if (isEvalgateError(error)) {
    // An error from a newer copy of the package has no row: shown by its kind.
    const message = ERROR_MESSAGES[error.code] ?? named;
    return withErrorCode(message(error, cwd, target), error.code);
  }
  if (error instanceof Error) {
    return error.name === "Error" ? error.message : `${error.name}: ${error.message}`;
  }
  return String(error);
}

/** Exit code and one redacted line; a cancellation is one message whatever carried it. */
export function commandError(
  error: unknown,
  cwd: string,
  target?: ModelTarget,
): { exitCode: number; message: string } {
  return { exitCode: EXIT_ERROR, message: redactSecretText(messageOf(error, cwd, target)) };
}
