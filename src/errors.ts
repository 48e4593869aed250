/**
 * The one error base of evalgate. Every error the project throws on purpose is an `EvalgateError`
 * with a stable, machine-readable `code` (for example `CATALOG_INVALID`), so callers branch on the
 * code rather than on class names or message text.
 *
 * @example
 * try {
 *   await loadCatalog(path);
 * } catch (error) {
 *   if (isEvalgateError(error, "CATALOG_INVALID")) console.error(error.message);
 *   else throw error;
 * }
 */
const BRAND = Symbol.for("evalgate.error");

export interface EvalgateErrorOptions {
  readonly cause?: unknown;
}

export class EvalgateError<Code extends string = string> extends Error {
  override name: string = "EvalgateError";
  /**
   * What went wrong, stable across releases: the value to branch on. A family of errors narrows
   * it to its own codes (`class StoreError extends EvalgateError<StoreErrorCode>`).
   */
  readonly code: Code;
  readonly [BRAND] = true;

  constructor(code: Code, message: string, options: EvalgateErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/**
 * True for any evalgate error (also across copies of the package), optionally of one code.
 */
export function isEvalgateError(value: unknown, code?: string): value is EvalgateError {
  if (typeof value !== "object" || value === null || !(BRAND in value)) return false;
  const actual = (value as { code?: unknown }).code;
  if (typeof actual !== "string") return false;
  return code === undefined || actual === code;
}

/**
 * A guard for the errors of one class (its code) or one family (the codes of its classes), built
 * on the code rather than `instanceof`, so it also holds for an error from another copy of the
 * package.
 *
 * @example
 * export const isToonError = errorGuard<ToonError>("TOON_INVALID");
 */
export function errorGuard<T extends EvalgateError>(
  ...codes: readonly string[]
): (value: unknown) => value is T {
  const known = new Set(codes);
  return (value: unknown): value is T => isEvalgateError(value) && known.has(value.code);
}

/** A message that ends with a code in square brackets already (a wrapped error's, say). */
const ENDS_WITH_CODE = /\[[A-Z][A-Z0-9_]*\]$/;

/**
 * A message as users see it: the text, then its code in square brackets (`… [CATALOG_INVALID]`),
 * so the code can be looked up in docs/errors.md. A message that ends with a code already (one
 * error reported through another) keeps that code alone.
 *
 * @example
 * withErrorCode("no thread 't1'", "THREAD_NOT_FOUND"); // "no thread 't1' [THREAD_NOT_FOUND]"
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
