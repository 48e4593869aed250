/**
 * What a command runs against; nothing in src/cli reads `process.stdout` or `process.env`. Its
 * streams make control characters visible (judge answers and content can hold terminal sequences);
 * the command's own redraws go through `control`.
 */
import { isAbsolute, relative } from "node:path";
import type { ModelEnv } from "../llm/spec.js";
import { terminalSafe } from "../untrusted/terminalText.js";

export const EXIT_OK = 0;
/** Not passed (evaluate), catalog errors (validate), or calibrate --apply refused. */
export const EXIT_FAILED = 1;
/** Bad arguments, an unreadable input, a catalog or model error: nothing was decided. */
export const EXIT_ERROR = 2;
/** Exit code after Ctrl-C (128 + SIGINT). */
export const EXIT_CANCELLED = 130;

/** A stream a command writes text to (process.stdout / process.stderr, or a test buffer). */
export interface TextOutput {
  write(text: string): unknown;
  /** Writes a terminal sequence the command makes itself (`\r`, clear-line), as it is. */
  control?(sequence: string): unknown;
  /** True when a terminal is attached (progress is then redrawn in place). */
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliContext {
  readonly stdout: TextOutput;
  readonly stderr: TextOutput;
  readonly env: ModelEnv;
  /** The folder relative paths are resolved against. */
  readonly cwd: string;
  /** Set by a command that decided something (0 passed, 1 not passed); errors give 2. */
  exitCode: number;
  readonly signal?: AbortSignal;
}

/** Where a command reads a person's answers: stdin, and whether it is a terminal. */
export interface StdinInput {
  stream: NodeJS.ReadableStream;
  terminal: boolean;
}

/** The process's stdin as a command reads it (the one place that does). */
export function processStdin(): StdinInput {
  return { stream: process.stdin, terminal: process.stdin.isTTY === true };
}

/** The stream writing terminal-safe text; `isTTY` and `columns` read through as they change. */
function terminalOutput(stream: TextOutput): TextOutput {
  return {
    write: (text: string) => stream.write(terminalSafe(String(text))),
    control: (sequence: string) => stream.write(sequence),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
  };
}

export function createCliContext(init: {
  stdout: TextOutput;
  stderr: TextOutput;
  env: ModelEnv;
  cwd: string;
  signal?: AbortSignal;
}): CliContext {
  return {
    ...init,
    stdout: terminalOutput(init.stdout),
    stderr: terminalOutput(init.stderr),
    exitCode: EXIT_OK,
  };
}

/** Writes a terminal sequence the command makes itself (on a stream that is not wrapped: as text). */
export function writeControl(stream: TextOutput, sequence: string): void {
  if (stream.control !== undefined) stream.control(sequence);
  else stream.write(sequence);
}

/** Writes terminal-safe `text` between two sequences the command makes itself (a redrawn line). */
export function writeBetween(stream: TextOutput, before: string, text: string, after = ""): void {
  if (stream.control === undefined) {
    stream.write(`${before}${text}${after}`);
    return;
  }
  if (before !== "") stream.control(before);
  stream.write(text);
  if (after !== "") stream.control(after);
}

/** The terminal's width when the stream is one, else `fallback` (a width that reads well in a log). */
export function terminalWidth(stream: TextOutput, fallback: number): number {
  return stream.isTTY === true && stream.columns !== undefined ? stream.columns : fallback;
}

/** A path as messages show it: relative to the working folder when inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const inside = relative(cwd, path);
  return inside !== "" && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

/** npm and npx set npm_* variables (and EDITOR=vi): under them the hints say `npx evalgate`. */
export function startedByNpm(env: ModelEnv): boolean {
  return ["npm_execpath", "npm_command", "npm_lifecycle_event"].some(
    (name) => (env[name]?.trim() ?? "") !== "",
  );
}

/** The command as the user ran it: `npx evalgate` under npm, else `evalgate`. */
export function evalgateCommand(env: ModelEnv): string {
  return startedByNpm(env) ? "npx evalgate" : "evalgate";
}
