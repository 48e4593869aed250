/**
 * How a judge's score past the ends of its scale is read: refused (the default) or, for judges
 * that answer slightly out of range, read as the nearer end within a bounded share of the range.
 */
import { z } from "zod";

/** The share of the scale's range past an end that `outOfRange: "clamp"` reads as the end. */
export const DEFAULT_CLAMP_TOLERANCE = 0.05;
/** The most a catalog may let a score go past an end of its scale and still read it: 10%. */
export const MAX_CLAMP_TOLERANCE = 0.1;

/**
 * How a judge's score past the ends of its scale is read. `"error"` (the default): a judge error,
 * fail-closed — a judge that answers off the scale may have misread it, so its number is not
 * trusted (rounding noise such as 1.0000001 is read as the end all the same). `"clamp"`: a score up
 * to DEFAULT_CLAMP_TOLERANCE of the range past an end is read as that end, with a note; farther
 * is still an error. `{ clamp: t }` sets that share (0 < t ≤ MAX_CLAMP_TOLERANCE).
 */
export const OutOfRangeSchema = z.union([
  z.enum(["error", "clamp"]),
  z.strictObject({ clamp: z.number().gt(0).max(MAX_CLAMP_TOLERANCE) }),
]);
export type OutOfRange = z.infer<typeof OutOfRangeSchema>;

/** The share of the range past an end that is read as the end (0: none, the default). */
export function clampToleranceOf(outOfRange: OutOfRange | undefined): number {
  if (outOfRange === undefined || outOfRange === "error") return 0;
  return outOfRange === "clamp" ? DEFAULT_CLAMP_TOLERANCE : outOfRange.clamp;
}
