/**
 * The threshold sweep: for one criterion, the share of labels on which the judge's pass/fail
 * would have matched the reviewer's for every threshold from 0 to 1 in steps of 0.01, the
 * agreement at the current threshold, and the threshold that would have agreed best.
 */
import { z } from "zod";
import { meetsThreshold } from "../consistency.js";
import { roundScore } from "../scale.js";

/** The sweep's grid: thresholds 0, 0.01, …, 1. */
export const SWEEP_STEPS = 100;

export const ThresholdPointSchema = z.object({
  threshold: z.number().min(0).max(1),
  /** Labels on which the judge's pass/fail at this threshold matches the reviewer's. */
  agreed: z.number().int().min(0),
  /** agreed / the number of compared labels. */
  agreement: z.number().min(0).max(1),
});
export type ThresholdPoint = z.infer<typeof ThresholdPointSchema>;

export const ThresholdSweepSchema = z.object({
  /** Labels compared: a judge score and a reviewer pass/fail. */
  compared: z.number().int().min(0),
  current: ThresholdPointSchema,
  best: ThresholdPointSchema,
  curve: z.array(ThresholdPointSchema),
});
export type ThresholdSweep = z.infer<typeof ThresholdSweepSchema>;

/** One label as the sweep sees it: the judge's score and the reviewer's verdict. */
export interface SweepLabel {
  judgeScore: number;
  reviewerPass: boolean;
}

function pointAt(labels: readonly SweepLabel[], threshold: number): ThresholdPoint {
  let agreed = 0;
  for (const label of labels) {
    if (meetsThreshold(label.judgeScore, threshold) === label.reviewerPass) agreed += 1;
  }
  return { threshold, agreed, agreement: agreed / labels.length };
}

/**
 * Whether `candidate` beats `best`: more labels agreed; on a tie, the threshold nearer the
 * current one (moving a threshold needs a reason); on a tie of distance, the lower threshold.
 */
function beats(candidate: ThresholdPoint, best: ThresholdPoint, current: number): boolean {
  if (candidate.agreed !== best.agreed) return candidate.agreed > best.agreed;
  const candidateDistance = roundScore(Math.abs(candidate.threshold - current));
  const bestDistance = roundScore(Math.abs(best.threshold - current));
  if (candidateDistance !== bestDistance) return candidateDistance < bestDistance;
  return candidate.threshold < best.threshold;
}

/**
 * The sweep over the labels at the criterion's current threshold; undefined when fewer than 2
 * labels can be compared (a best threshold for one label is no finding).
 */
export function sweepThresholds(
  labels: readonly SweepLabel[],
  currentThreshold: number,
): ThresholdSweep | undefined {
  if (labels.length < 2) return undefined;
  const curve: ThresholdPoint[] = [];
  for (let step = 0; step <= SWEEP_STEPS; step += 1) {
    curve.push(pointAt(labels, step / SWEEP_STEPS));
  }
  const current = pointAt(labels, currentThreshold);
  let best = current;
  for (const point of curve) {
    if (beats(point, best, currentThreshold)) best = point;
  }
  return { compared: labels.length, current, best, curve };
}
