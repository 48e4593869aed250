/**
 * How a failed command ends: exit 2 and one redacted line ending with the error's code, the key to
 * docs/errors.md. ERROR_CODES gathers every code evalgate throws.
 */
import { BLUEPRINT_ERROR_CODES } from "../blueprints/errors.js";
import { CHECKS_ERROR_CODES } from "../checks/errors.js";
import { CONTEXT_ERROR_CODES } from "../context/errors.js";
import { CATALOG_ERROR_CODES, CatalogError } from "../criteria/errors.js";
import { ENGINE_ERROR_CODES, isEvaluationModelError } from "../engine/errors.js";
import { type EvalgateError, isEvalgateError, withErrorCode } from "../errors.js";
import { GRAPH_ERROR_CODES } from "../graph/errors.js";
import { JUDGE_ERROR_CODES } from "../judge/errors.js";
import { EMBEDDED_ERROR_CODES } from "../llm/embedded/errors.js";
import { isModelAbortedError, isModelCallError, LLM_ERROR_CODES } from "../llm/errors.js";
import { CHECKPOINTER_ERROR_CODES, ORCHESTRATOR_ERROR_CODES } from "../orchestrator/errors.js";
import { redactSecretText } from "../redact.js";
import { RUBRICS_ERROR_CODES, RubricConfigError } from "../rubrics/errors.js";
import { SCORING_ERROR_CODES } from "../scoring/errors.js";
import { SERVICE_ERROR_STATUS, type ServiceErrorCode } from "../service/errors.js";
import { STORE_ERROR_CODES } from "../store/errors.js";
import { TOON_ERROR_CODES } from "../toon/errors.js";
import { displayPath } from "./displayPath.js";
import { CLI_ERROR_CODES } from "./errors.js";
import { EXIT_ERROR } from "./exitCodes.js";
import { explainModelFailure, type ModelTarget } from "./modelCheck.js";

const FOLDER_ERROR_CODES = [
  ...BLUEPRINT_ERROR_CODES,
  ...CATALOG_ERROR_CODES,
  ...CHECKS_ERROR_CODES,
  ...CLI_ERROR_CODES,
  ...CONTEXT_ERROR_CODES,
  ...ENGINE_ERROR_CODES,
  ...GRAPH_ERROR_CODES,
  ...JUDGE_ERROR_CODES,
  ...LLM_ERROR_CODES,
  ...EMBEDDED_ERROR_CODES,
  ...ORCHESTRATOR_ERROR_CODES,
  ...CHECKPOINTER_ERROR_CODES,
  ...RUBRICS_ERROR_CODES,
  ...SCORING_ERROR_CODES,
  ...STORE_ERROR_CODES,
  ...TOON_ERROR_CODES,
] as const;

export type ErrorCode = (typeof FOLDER_ERROR_CODES)[number] | ServiceErrorCode;

/** Every code once: the service's table also lists some folder codes (STORE_UNAVAILABLE is 503). */
export const ERROR_CODES: readonly ErrorCode[] = [
  ...new Set<ErrorCode>([
    ...FOLDER_ERROR_CODES,
    ...(Object.keys(SERVICE_ERROR_STATUS) as ServiceErrorCode[]),
  ]),
];

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

/** The codes whose line is not `<kind>: <message>`; every other code is shown by its kind. */
export const ERROR_MESSAGES: Partial<Record<ErrorCode, Message>> = {
  // A catalog that cannot be used: nothing was decided, whichever command met it.
  CATALOG_INVALID: catalog,
  CATALOG_NOT_FOUND: catalog,
  COMMAND_INVALID: plain,
  INPUT_FILE_UNREADABLE: plain,
  OUTPUT_FILE_UNWRITABLE: plain,
  MODEL_NOT_READY: plain,
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
  CONTENT_TOO_LARGE: plain,
  CORRECTION_INVALID: plain,
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
    const message = ERROR_MESSAGES[error.code as ErrorCode] ?? named;
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
