/**
 * The one error base: every error evalgate throws on purpose has a stable `code` to branch on.
 *
 * @example
 * if (isEvalgateError(error, "CATALOG_INVALID")) console.error(error.message);
 */
import { safeCause } from "./redact.js";

const BRAND = Symbol.for("evalgate.error");

export interface EvalgateErrorOptions {
  readonly cause?: unknown;
}

export class EvalgateError<Code extends string = string> extends Error {
  /** Stable across releases; a family narrows it to its own codes. */
  readonly code: Code;
  readonly [BRAND] = true;

  /** A cause holding a secret (a password in a URL it quotes) is kept as a redacted copy. */
  constructor(code: Code, message: string, options: EvalgateErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: safeCause(options.cause) });
    this.code = code;
    this.name = new.target.name;
  }
}

/** True for any evalgate error (also across copies of the package), optionally of one code. */
export function isEvalgateError(value: unknown, code?: string): value is EvalgateError {
  if (typeof value !== "object" || value === null || !(BRAND in value)) return false;
  const actual = (value as { code?: unknown }).code;
  if (typeof actual !== "string") return false;
  return code === undefined || actual === code;
}

/** A guard for the codes of one class or family, by code so it holds across package copies. */
export function errorGuard<T extends EvalgateError>(
  ...codes: readonly string[]
): (value: unknown) => value is T {
  const known = new Set(codes);
  return (value: unknown): value is T => isEvalgateError(value) && known.has(value.code);
}

const ENDS_WITH_CODE = /\[[A-Z][A-Z0-9_]*\]$/;

/**
 * The message with its code in square brackets (`… [CATALOG_INVALID]`), unless it ends with one
 * already (one error reported through another).
 */
export function withErrorCode(message: string, code: string): string {
  if (ENDS_WITH_CODE.test(message)) return message;
  return message === "" ? `[${code}]` : `${message} [${code}]`;
}

/** The message to show a user for anything thrown: an evalgate error's ends with its code. */
export function userMessage(error: unknown): string {
  if (isEvalgateError(error)) return withErrorCode(error.message, error.code);
  return error instanceof Error ? error.message : String(error);
}
