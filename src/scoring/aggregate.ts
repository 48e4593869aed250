import { isEvaluated } from "./consistency.js";
import type { CriterionResult } from "./result.js";
import { roundScore } from "./scale.js";

export interface WeightedAverage {
  /** Σ w·s / Σ w over evaluated, non-knockout criteria; 0 when that weight is 0. */
  overallScore: number;
  /** 0–1 per evaluated criterion id (knockouts included: they were evaluated). */
  scores: Record<string, number>;
  /** Ids of criteria that could not be evaluated; they are neither a zero nor a pass. */
  notEvaluated: string[];
  /** Σ w of the criteria that entered the average. */
  totalWeight: number;
  /** True when no weight entered the average, so overallScore says nothing. */
  zeroWeight: boolean;
  warnings: string[];
}

/**
 * The weighted average of the criteria that were evaluated. Knockout criteria are gates: their
 * weight never enters the total. Criteria that were not evaluated are listed, not counted.
 */
export function weightedAverage(results: readonly CriterionResult[]): WeightedAverage {
  const scores: Record<string, number> = {};
  const notEvaluated: string[] = [];
  let weighted = 0;
  let totalWeight = 0;
  for (const result of results) {
    if (!isEvaluated(result)) {
      notEvaluated.push(result.id);
      continue;
    }
    scores[result.id] = result.score;
    if (result.knockout) continue;
    weighted += result.weight * result.score;
    totalWeight += result.weight;
  }
  totalWeight = roundScore(totalWeight);
  if (totalWeight === 0) {
    const evaluatedCount = Object.keys(scores).length;
    const why =
      evaluatedCount === 0
        ? "no criterion could be evaluated"
        : "the evaluated criteria are knockouts or have weight 0";
    return {
      overallScore: 0,
      scores,
      notEvaluated,
      totalWeight: 0,
      zeroWeight: true,
      warnings: [`no weighted score: ${why}; overall score set to 0 and cannot pass`],
    };
  }
  const overallScore = Math.min(1, Math.max(0, roundScore(weighted / totalWeight)));
  return { overallScore, scores, notEvaluated, totalWeight, zeroWeight: false, warnings: [] };
}
