/**
 * Whole numbers read from a query string, strictly: decimal digits only, so `1e3`, `0x10`, ` 10`,
 * `10.0`, `+5` or `010` are refused rather than read as a number (what `Number()` would do).
 * A number given as a number (a library caller's page request) is taken as it is, if whole.
 */
import { z } from "zod";

const DIGITS = /^(0|[1-9][0-9]{0,14})$/;

/** A whole number from `min` to `max`, given as a number or as its decimal digits. */
export function wholeNumberParam(min: number, max: number) {
  const range = z.number().int().min(min).max(max);
  return z.union([
    range,
    z
      .string()
      .regex(DIGITS, `a whole number from ${min} to ${max}, in decimal digits`)
      .transform(Number)
      .pipe(range),
  ]);
}
