/**
 * The one line a failed command prints on stderr, and the code it exits with, read from the error
 * table (errorTable.ts); no URL in the line carries credentials. The line of an evalgate error ends
 * with its code in square brackets (`… [CATALOG_INVALID]`), the key to docs/errors.md.
 */
import { withErrorCode } from "../errors.js";
import { redactCredentials } from "../redact.js";
import { describeCommandError } from "./errorTable.js";
import type { ModelTarget } from "./modelCheck.js";

/** The message for `error`, without a trailing newline; file paths are relative to `cwd`. */
export function errorMessage(error: unknown, cwd: string, target?: ModelTarget): string {
  return commandError(error, cwd, target).message;
}

/** The exit code and the (redacted) message for a command that threw `error`. */
export function commandError(
  error: unknown,
  cwd: string,
  target?: ModelTarget,
): { exitCode: number; message: string } {
  const { exitCode, message, code } = describeCommandError(error, cwd, target);
  const shown = code === undefined ? message : withErrorCode(message, code);
  return { exitCode, message: redactCredentials(shown) };
}
