/**
 * What a failed command prints and the code it exits with, for every error the commands can meet:
 * one row per error code. Model failures are explained as the model check explains them; catalog
 * errors name the file relative to the working folder; the command line's own errors already say
 * what and where; any other evalgate error is shown with its kind (`ToonError: …`).
 */
import { CatalogError } from "../criteria/errors.js";
import { isEvaluationModelError } from "../engine/errors.js";
import { type EvalgateError, isEvalgateError } from "../errors.js";
import { isModelAbortedError, isModelCallError } from "../llm/errors.js";
import { RubricConfigError } from "../rubrics/errors.js";
import { displayPath } from "./displayPath.js";
import type { ErrorCode } from "./errorCodes.js";
import { EXIT_ERROR } from "./exitCodes.js";
import { explainModelFailure, type ModelTarget } from "./modelCheck.js";

/** How one kind of error ends a command. */
export interface ErrorRow {
  /** The process exit code (a command whose own cancel signal fired exits 130 whatever the row). */
  exit: number;
  /** The one line printed on stderr after `evalgate: `, without a trailing newline. */
  message: (error: EvalgateError, cwd: string, target?: ModelTarget) => string;
}

const CANCELLED_MESSAGE = "cancelled: the evaluation was interrupted before it finished";

/** The error's own message: it already says what and where. */
const plain = (error: EvalgateError): string => error.message;
/** The message after the error's kind: `ToonError: line 3: …`. */
const named = (error: EvalgateError): string => `${error.name}: ${error.message}`;

function modelMessage(error: EvalgateError, _cwd: string, target?: ModelTarget): string {
  if (isEvaluationModelError(error) || isModelCallError(error)) {
    return explainModelFailure(error, target).message;
  }
  return named(error);
}

function catalogMessage(error: EvalgateError, cwd: string): string {
  if (!(error instanceof CatalogError)) return `cannot use the catalog: ${error.message}`;
  const where = {
    source: displayPath(error.source, cwd),
    ...(error.line === undefined ? {} : { line: error.line }),
    ...(error.column === undefined ? {} : { column: error.column }),
    ...(error.path === undefined ? {} : { path: error.path }),
  };
  return `cannot use the catalog: ${CatalogError.format(error.detail, where)}`;
}

/** A rubric file's error, its path relative to the working folder. */
function rubricFileMessage(error: EvalgateError, cwd: string): string {
  if (!(error instanceof RubricConfigError)) return error.message;
  return `${displayPath(error.source, cwd)}: ${error.detail}`;
}

const error2 = (message: ErrorRow["message"]): ErrorRow => ({ exit: EXIT_ERROR, message });
const PLAIN = error2(plain);
const NAMED = error2(named);
const MODEL = error2(modelMessage);
const CATALOG = error2(catalogMessage);

/** Every evalgate error code, with its exit code and message. A new code needs a row here. */
export const ERROR_TABLE = {
  // A catalog that cannot be used: nothing was decided, whichever command met it.
  CATALOG_INVALID: CATALOG,
  CATALOG_NOT_FOUND: CATALOG,
  // The command line's own errors.
  COMMAND_INVALID: PLAIN,
  INPUT_FILE_UNREADABLE: PLAIN,
  OUTPUT_FILE_UNWRITABLE: PLAIN,
  MODEL_NOT_READY: PLAIN,
  EDITOR_FAILED: NAMED,
  RUN_SETTINGS_INVALID: NAMED,
  // The judge model. A cancelled call is explained as a cancellation; it exits 130 only when
  // the command itself was cancelled.
  MODEL_TIMEOUT: MODEL,
  MODEL_RATE_LIMITED: MODEL,
  MODEL_UNAVAILABLE: MODEL,
  MODEL_REQUEST_REJECTED: MODEL,
  MODEL_CONTENT_POLICY: MODEL,
  MODEL_RESPONSE_UNUSABLE: MODEL,
  MODEL_CALL_CANCELLED: error2(() => CANCELLED_MESSAGE),
  PROVIDER_UNAVAILABLE: MODEL,
  EVALUATION_MODEL_FAILED: MODEL,
  MODEL_SPEC_INVALID: NAMED,
  MODEL_PROVIDER_UNKNOWN: NAMED,
  MODEL_OPTIONS_INVALID: NAMED,
  // The embedded model: its runtime, a local model file, the download of the default model.
  EMBEDDED_RUNTIME_UNAVAILABLE: PLAIN,
  MODEL_FILE_UNUSABLE: PLAIN,
  MODEL_DOWNLOAD_FAILED: PLAIN,
  // Evaluation and projects.
  EVALUATION_FAILED: NAMED,
  PROJECT_INVALID: NAMED,
  PROJECT_NOT_FOUND: NAMED,
  PROJECT_EMPTY: NAMED,
  PROJECT_ID_INVALID: NAMED,
  CONTENT_TOO_LARGE: PLAIN,
  // Deterministic checks, documents, judge prompts, scoring, TOON.
  FUNCTION_UNRESOLVED: NAMED,
  CRITERION_METHOD_MISMATCH: NAMED,
  SCHEMA_UNREADABLE: NAMED,
  DOCUMENTS_UNREADABLE: NAMED,
  EMBEDDING_INVALID: NAMED,
  JUDGE_FAILED: NAMED,
  JUDGE_PROMPT_INVALID: NAMED,
  PROMPT_PLACEHOLDER_UNKNOWN: NAMED,
  PROMPT_TEMPLATE_INVALID: NAMED,
  BLUEPRINT_INVALID: NAMED,
  METHOD_NOT_JUDGED: NAMED,
  SCORING_FAILED: NAMED,
  SCALE_INVALID: NAMED,
  LEVEL_UNKNOWN: NAMED,
  RESULT_INCONSISTENT: NAMED,
  CRITERION_RESULTS_MISMATCH: NAMED,
  CORRECTION_INVALID: PLAIN,
  TOON_INVALID: NAMED,
  // The proposal graph and the review orchestrator.
  STATE_PATH_INVALID: NAMED,
  DEPENDENCY_MAP_INVALID: NAMED,
  RFP_UNREADABLE: NAMED,
  NOTHING_EVALUATED: NAMED,
  GENERATION_OUTPUT_INVALID: NAMED,
  RESUME_WITHOUT_PAUSE: NAMED,
  RESUME_INVALID: NAMED,
  RUN_SETTINGS_CHANGED: NAMED,
  GRAPH_INPUT_INVALID: NAMED,
  RUN_CONTEXT_INVALID: NAMED,
  ORCHESTRATOR_FAILED: NAMED,
  CHECKPOINT_NOT_FOUND: NAMED,
  THREAD_EXISTS: NAMED,
  THREAD_FOREIGN: NAMED,
  THREAD_ID_INVALID: NAMED,
  THREAD_NOT_PAUSED: NAMED,
  INTERRUPT_MISMATCH: NAMED,
  DECISION_INVALID: NAMED,
  GRAPH_RUN_FAILED: NAMED,
  THREAD_STATE_INVALID: NAMED,
  CHECKPOINTER_UNAVAILABLE: NAMED,
  // The review desk, the review store and the review service.
  UNAUTHENTICATED: NAMED,
  FORBIDDEN: NAMED,
  NOT_ASSIGNED: NAMED,
  THREAD_NOT_FOUND: NAMED,
  INVALID_INPUT: NAMED,
  REVIEW_NOT_PENDING: NAMED,
  ALREADY_DECIDED: NAMED,
  ACTION_NOT_OFFERED: NAMED,
  THREAD_NOT_FAILED: NAMED,
  STORE_OPEN_FAILED: NAMED,
  STORE_DATA_INVALID: NAMED,
  REVIEWER_EXISTS: NAMED,
  STORE_UNAVAILABLE: NAMED,
  CSRF_REJECTED: NAMED,
  ORIGIN_REJECTED: NAMED,
  ROUTE_NOT_FOUND: NAMED,
  PAYLOAD_TOO_LARGE: NAMED,
  UNSUPPORTED_MEDIA_TYPE: NAMED,
  TOO_MANY_ATTEMPTS: NAMED,
  INTERNAL: NAMED,
  // The rubric and artifact registries: their messages say what and where.
  RUBRIC_NOT_FOUND: PLAIN,
  RUBRIC_CONFIG_INVALID: error2(rubricFileMessage),
  ARTIFACT_NOT_FOUND: PLAIN,
  ARTIFACT_REVIEW_FAILED: PLAIN,
} as const satisfies Record<ErrorCode, ErrorRow>;

/** An AbortError from outside, or a model error that only says the call was cancelled. */
function isCancellation(error: unknown): boolean {
  if (isModelAbortedError(error)) return true;
  if (isEvaluationModelError(error)) return isModelAbortedError(error.modelError);
  return error instanceof Error && error.name === "AbortError";
}

/**
 * How a command that threw `error` ends: its exit code, its message (paths relative to `cwd`) and
 * the code the message is looked up by (none for an error that is not evalgate's). A cancellation
 * is one message and one code, whichever error carried it.
 */
export function describeCommandError(
  error: unknown,
  cwd: string,
  target?: ModelTarget,
): { exitCode: number; message: string; code?: string } {
  if (isCancellation(error)) {
    return { exitCode: EXIT_ERROR, message: CANCELLED_MESSAGE, code: "MODEL_CALL_CANCELLED" };
  }
  if (isEvalgateError(error)) {
    // An error from a newer copy of the package has no row: shown by its kind.
    const row = (ERROR_TABLE as Record<string, ErrorRow>)[error.code] ?? NAMED;
    return { exitCode: row.exit, message: row.message(error, cwd, target), code: error.code };
  }
  if (error instanceof Error) {
    const message = error.name === "Error" ? error.message : `${error.name}: ${error.message}`;
    return { exitCode: EXIT_ERROR, message };
  }
  return { exitCode: EXIT_ERROR, message: String(error) };
}
