import { EvalgateError, errorGuard } from "../errors.js";

export interface ToonLocation {
  readonly line: number;
  readonly source?: string | undefined;
}

/** TOON text that cannot be decoded; `line` is 1-based in the text as the caller wrote it. */
export class ToonError extends EvalgateError {
  override readonly code = "TOON_INVALID";
  readonly line: number;
  readonly source: string | undefined;
  readonly reason: string;

  constructor(reason: string, location: ToonLocation, options: { cause?: unknown } = {}) {
    const where = location.source ? `${location.source}:${location.line}` : `line ${location.line}`;
    super("TOON_INVALID", `${where}: ${reason}`, options);
    this.line = location.line;
    this.source = location.source;
    this.reason = reason;
  }
}

/** "1 row", "3 rows". */
export function countOf(n: number | string, singular: string, plural = `${singular}s`): string {
  return `${n} ${Number(n) === 1 ? singular : plural}`;
}

export const isToonError = errorGuard<ToonError>("TOON_INVALID");
