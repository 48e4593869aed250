/**
 * How a score criterion's score was read from the judge's answer: the value the model wrote
 * ("plain"), or the mean of the scale's values weighted by their token probabilities
 * ("probability-weighted", where the model server gives token log-probabilities).
 */
import { z } from "zod";

export const ScoreMethodSchema = z.enum(["probability-weighted", "plain"]);
export type ScoreMethod = z.infer<typeof ScoreMethodSchema>;

/** What weighting one answer's score gave: the weighted score and its distribution, or why not. */
export const ScoreWeightingSchema = z.discriminatedUnion("scoreMethod", [
  z.object({
    scoreMethod: z.literal("probability-weighted"),
    /** The weighted mean on the criterion's native scale (4.2 on 1–5). */
    native: z.number(),
    /** Each scale value's probability, renormalised over the scale's values. */
    distribution: z.record(z.string(), z.number().min(0).max(1)),
    /** The probability the scale's values carried before renormalising. */
    mass: z.number().min(0),
    /** The value the model wrote (the token sampled at the score's position). */
    sampled: z.number(),
  }),
  z.object({ scoreMethod: z.literal("plain"), reason: z.string() }),
]);
export type ScoreWeighting = z.infer<typeof ScoreWeightingSchema>;
