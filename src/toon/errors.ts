import { EvalgateError, errorGuard } from "../errors.js";

/** Where a TOON problem is: a 1-based line of the text as the caller wrote it, and its file. */
export interface ToonLocation {
  readonly line: number;
  readonly source?: string | undefined;
}

/**
 * TOON text that cannot be decoded. `line` is 1-based in the original text (before the TOON
 * criteria dialect was rewritten); the message reads `source:line: reason` (or `line N: reason`).
 */
export class ToonError extends EvalgateError {
  override readonly name = "ToonError";
  override readonly code = "TOON_INVALID";
  readonly line: number;
  readonly source: string | undefined;
  /** What was expected, without the location. */
  readonly reason: string;

  constructor(reason: string, location: ToonLocation, options: { cause?: unknown } = {}) {
    const where = location.source ? `${location.source}:${location.line}` : `line ${location.line}`;
    super("TOON_INVALID", `${where}: ${reason}`, options);
    this.line = location.line;
    this.source = location.source;
    this.reason = reason;
  }
}

/** "1 row", "3 rows": a count with its noun, for error messages. */
export function countOf(n: number | string, singular: string, plural = `${singular}s`): string {
  return `${n} ${Number(n) === 1 ? singular : plural}`;
}

/** The codes of the TOON errors, one per class. */
export const TOON_ERROR_CODES = ["TOON_INVALID"] as const;

export const isToonError = errorGuard<ToonError>("TOON_INVALID");
