/**
 * Spearman's ρ: the rank agreement of two score lists — the Pearson correlation of their ranks,
 * with tied values given the average of the ranks they span (so 0.5, 0.7, 0.7, 0.9 rank 1, 2.5,
 * 2.5, 4).
 */
import { type Figure, figureOf, missingFigure } from "./figure.js";

/** Ranks from 1 (the smallest value), ties sharing the average of their ranks. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length).fill(0);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.value === order[start]?.value) end += 1;
    // Positions start..end (0-based) hold ranks start+1..end+1; their average is the midpoint.
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k += 1) {
      const entry = order[k];
      if (entry !== undefined) ranks[entry.index] = rank;
    }
    start = end + 1;
  }
  return ranks;
}

function pearson(x: readonly number[], y: readonly number[]): Figure {
  const n = x.length;
  const meanX = x.reduce((sum, v) => sum + v, 0) / n;
  const meanY = y.reduce((sum, v) => sum + v, 0) / n;
  let covariance = 0;
  let varianceX = 0;
  let varianceY = 0;
  for (let i = 0; i < n; i += 1) {
    const dx = (x[i] ?? 0) - meanX;
    const dy = (y[i] ?? 0) - meanY;
    covariance += dx * dy;
    varianceX += dx * dx;
    varianceY += dy * dy;
  }
  if (varianceX < 1e-12 || varianceY < 1e-12) return missingFigure("no-variance");
  const value = covariance / Math.sqrt(varianceX * varianceY);
  // Rounding can push a perfect correlation a hair past ±1.
  return figureOf(Math.max(-1, Math.min(1, value)));
}

/** One compared pair: the judge's score and the reviewer's, both on the 0–1 scale. */
export interface ScorePair {
  judge: number;
  reviewer: number;
}

/**
 * Spearman's ρ of the pairs. Missing with fewer than 2 pairs, and when either side has a single
 * value throughout (a rank correlation with a constant is undefined, not 0).
 */
export function spearmanRho(pairs: readonly ScorePair[]): Figure {
  if (pairs.length < 2) return missingFigure("too-few-labels");
  return pearson(
    averageRanks(pairs.map((pair) => pair.judge)),
    averageRanks(pairs.map((pair) => pair.reviewer)),
  );
}
