import { z } from "zod";

export const DEFAULT_CLAMP_TOLERANCE = 0.05;
export const MAX_CLAMP_TOLERANCE = 0.1;

/**
 * How a judge's score past its scale's ends is read: `"error"` (the default, fail-closed: a judge
 * off the scale may have misread it), or `"clamp"` within a bounded share of the range.
 */
export const OutOfRangeSchema = z.union(
  [
    z.enum(["error", "clamp"]),
    z.strictObject({ clamp: z.number().gt(0).max(MAX_CLAMP_TOLERANCE) }),
  ],
  {
    error: `expected "error", "clamp" or { "clamp": a share of the scale's range up to ${MAX_CLAMP_TOLERANCE} }`,
  },
);
export type OutOfRange = z.infer<typeof OutOfRangeSchema>;

export function clampToleranceOf(outOfRange: OutOfRange | undefined): number {
  if (outOfRange === undefined || outOfRange === "error") return 0;
  return outOfRange === "clamp" ? DEFAULT_CLAMP_TOLERANCE : outOfRange.clamp;
}
