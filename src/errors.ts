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

export class EvalgateError extends Error {
  override readonly name: string = "EvalgateError";
  /** What went wrong, stable across releases: the value to branch on. */
  readonly code: string;
  readonly [BRAND] = true;

  constructor(code: string, message: string, options: EvalgateErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/**
 * True for any evalgate error (also across copies of the package), optionally of one code.
 */
export function isEvalgateError(value: unknown, code?: string): value is EvalgateError {
  if (typeof value !== "object" || value === null || !(BRAND in value)) return false;
  return code === undefined || (value as { code?: unknown }).code === code;
}
