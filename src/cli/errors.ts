import { EvalgateError, errorGuard } from "../errors.js";
import { redactSecretText } from "../redact.js";

export class CliError extends EvalgateError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("COMMAND_INVALID", message, options);
  }
}

/** An input path (content, documents, catalog, data file) that does not exist or cannot be read. */
export class InputFileError extends CliError {
  override readonly code = "INPUT_FILE_UNREADABLE";

  constructor(
    /** What the path was given as, e.g. "content file", "--documents folder". */
    readonly role: string,
    readonly path: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(`${role} ${path}: ${reason}`, options);
  }
}

export class OutputFileError extends CliError {
  override readonly code = "OUTPUT_FILE_UNWRITABLE";

  constructor(
    readonly path: string,
    readonly reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(`cannot write ${path}: ${reason}`, options);
  }
}

export type ModelProblem = "ollama-unreachable" | "model-not-pulled" | "model-failed";

/** The judge model cannot be used: Ollama is down, the model is not pulled, or every call failed. */
export class ModelNotReadyError extends CliError {
  override readonly code = "MODEL_NOT_READY";

  /** The model and server (without credentials). */
  readonly target: { model: string; baseUrl: string | undefined };

  constructor(
    readonly problem: ModelProblem,
    target: { model: string; baseUrl: string | undefined },
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(redactSecretText(message), options);
    const baseUrl = target.baseUrl === undefined ? undefined : redactSecretText(target.baseUrl);
    this.target = { model: target.model, baseUrl };
  }
}

/** The editor could not be started, failed, or its file could not be read back. */
export class EditorError extends EvalgateError {
  constructor(
    readonly editor: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super("EDITOR_FAILED", `editor "${editor}": ${reason}`, options);
  }
}

/** The run settings file could not be read: it is not JSON or not in the expected shape. */
export class RunSettingsFileError extends EvalgateError {
  constructor(
    readonly path: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super("RUN_SETTINGS_INVALID", `run settings ${path}: ${reason}`, options);
  }
}

export const isInputFileError = errorGuard<InputFileError>("INPUT_FILE_UNREADABLE");
export const isEditorError = errorGuard<EditorError>("EDITOR_FAILED");

/** `scheme://…` (two letters or more, so a drive such as `C:` is a path): a URL, never a file. */
const URL_SCHEME = /^[a-z][a-z0-9+.-]{1,31}:\/\//i;

/**
 * Refuses a URL given as `option`'s SQLite file (or folder), naming the option, the URL redacted:
 * taken as a path (`postgres://u:p@h/db` becomes `postgres:/u:p@h/db`) it would show its password.
 */
export function refuseUrlAsFile(
  value: string | undefined,
  option: { name: string; takes: string; instead?: string },
): void {
  const given = value?.trim();
  if (given === undefined || !URL_SCHEME.test(given)) return;
  const instead = option.instead ?? "give a PostgreSQL database with --database-url <url>";
  throw new CliError(
    `${option.name} takes ${option.takes}, not a URL (${redactSecretText(given)}): ${instead}`,
  );
}
