/**
 * The one line a failed command prints on stderr: what went wrong and where, for every error the
 * commands can meet. Model failures are explained as the model check explains them.
 */
import { CatalogError } from "../criteria/errors.js";
import { EvaluationModelError } from "../engine/errors.js";
import { ModelAbortedError, ModelCallError } from "../llm/errors.js";
import { redactCredentials } from "../llm/redact.js";
import { displayPath } from "./displayPath.js";
import { CliError } from "./errors.js";
import { explainModelFailure, type ModelTarget } from "./modelCheck.js";

function isAbort(error: unknown): boolean {
  if (error instanceof ModelAbortedError) return true;
  if (error instanceof EvaluationModelError) return error.modelError instanceof ModelAbortedError;
  return error instanceof Error && error.name === "AbortError";
}

/**
 * The message for `error`, without a trailing newline; file paths are shown relative to `cwd`,
 * and no URL in it carries credentials.
 */
export function errorMessage(error: unknown, cwd: string, target?: ModelTarget): string {
  return redactCredentials(messageOf(error, cwd, target));
}

function messageOf(error: unknown, cwd: string, target?: ModelTarget): string {
  if (isAbort(error)) return "cancelled: the evaluation was interrupted before it finished";
  if (error instanceof EvaluationModelError || error instanceof ModelCallError) {
    return explainModelFailure(error, target).message;
  }
  if (error instanceof CatalogError) {
    const where = {
      source: displayPath(error.source, cwd),
      ...(error.line === undefined ? {} : { line: error.line }),
      ...(error.column === undefined ? {} : { column: error.column }),
      ...(error.path === undefined ? {} : { path: error.path }),
    };
    return `cannot use the catalog: ${CatalogError.format(error.detail, where)}`;
  }
  if (error instanceof CliError) return error.message;
  if (error instanceof Error) {
    // Typed project errors (ToonError, DocumentLoadError, ModelSpecError, EvaluationError, …)
    // already name what and where; their class name says which kind of problem it is.
    return error.name === "Error" ? error.message : `${error.name}: ${error.message}`;
  }
  return String(error);
}
