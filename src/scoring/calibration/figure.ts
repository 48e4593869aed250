import { z } from "zod";

/**
 * Why a figure has no value: fewer labels than it needs (`too-few-labels`), or labels that do not
 * vary where the figure divides by their variance (`no-variance`: every label on the same side,
 * every score the same). Such a figure is reported as "not enough labels", never as 0 or 1.
 */
export const MissingFigureSchema = z.enum(["too-few-labels", "no-variance"]);
export type MissingFigure = z.infer<typeof MissingFigureSchema>;

/** A statistic with its value, or null and the reason it could not be computed. */
export const FigureSchema = z.union([
  z.object({ value: z.number(), missing: z.null() }),
  z.object({ value: z.null(), missing: MissingFigureSchema }),
]);
export type Figure = z.infer<typeof FigureSchema>;

export function figureOf(value: number): Figure {
  return { value, missing: null };
}

export function missingFigure(missing: MissingFigure): Figure {
  return { value: null, missing };
}

/** The reason a figure is missing, as the reports print it. */
export function describeMissing(missing: MissingFigure): string {
  return missing === "too-few-labels"
    ? "not enough labels (fewer than 2)"
    : "not enough labels (no variance)";
}
