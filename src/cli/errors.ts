import { EXIT_ERROR } from "./exitCodes.js";

/**
 * A command that cannot run as asked: a bad argument, an input that cannot be read, a model that
 * is not there. The message says what and where; the command exits with `exitCode` (2).
 */
export class CliError extends Error {
  override readonly name: string = "CliError";
  readonly exitCode: number;

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? EXIT_ERROR;
  }
}

/** An input path (content, documents, catalog, data file) that does not exist or cannot be read. */
export class InputFileError extends CliError {
  override readonly name = "InputFileError";

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

/** The report could not be written to its --out file. */
export class OutputFileError extends CliError {
  override readonly name = "OutputFileError";

  constructor(
    readonly path: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(`cannot write ${path}: ${reason}`, options);
  }
}
