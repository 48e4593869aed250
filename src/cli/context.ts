/**
 * What a command runs against: the output streams, the environment and the exit code it reports.
 * The launcher passes the process's own; nothing in src/cli reads `process.stdout` or
 * `process.env` directly, so a command behaves the same in a child process and in a test.
 */
import type { ModelEnv } from "../llm/spec.js";

/** A stream a command writes text to (process.stdout / process.stderr, or a test buffer). */
export interface TextOutput {
  write(text: string): unknown;
  /** True when a terminal is attached (progress is then redrawn in place). */
  readonly isTTY?: boolean;
  /** Terminal width, when known. */
  readonly columns?: number;
}

/** Exit codes of every evalgate command. */
export const EXIT_OK = 0;
/** The content did not pass (evaluate), or the catalog has errors (catalog validate). */
export const EXIT_FAILED = 1;
/** Bad arguments, an unreadable input, a catalog or model error: nothing was decided. */
export const EXIT_ERROR = 2;

export interface CliContext {
  readonly stdout: TextOutput;
  readonly stderr: TextOutput;
  readonly env: ModelEnv;
  /** The folder relative paths are resolved against. */
  readonly cwd: string;
  /** Set by a command that decided something (0 passed, 1 not passed); errors give 2. */
  exitCode: number;
  /** Cancels the running command (Ctrl-C). */
  readonly signal?: AbortSignal;
}

export function createCliContext(init: {
  stdout: TextOutput;
  stderr: TextOutput;
  env: ModelEnv;
  cwd: string;
  signal?: AbortSignal;
}): CliContext {
  return { ...init, exitCode: EXIT_OK };
}
