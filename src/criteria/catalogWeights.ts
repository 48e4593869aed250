import type { Catalog, Criterion } from "./model.js";

/** How far the scored weights may stray from summing to 1 before they are normalised. */
export const WEIGHT_TOLERANCE = 0.01;

/** Criteria whose weight enters the weighted total (knockout gates do not). */
export function scoredCriteria(catalog: Catalog): Criterion[] {
  return catalog.criteria.filter((c) => !c.knockout);
}

export function weightSum(criteria: readonly Criterion[]): number {
  return criteria.reduce((sum, c) => sum + c.weight, 0);
}

/** To six decimals; a number too large to scale (1e308) is shown as it is. */
export function roundForMessage(n: number): number {
  const rounded = Math.round(n * 1e6) / 1e6;
  return Number.isFinite(rounded) ? rounded : n;
}

/** Knockout weights are left as they are. */
export function normaliseWeights(catalog: Catalog): Catalog {
  const sum = weightSum(scoredCriteria(catalog));
  if (sum === 0 || Math.abs(sum - 1) <= WEIGHT_TOLERANCE) return catalog;
  return {
    ...catalog,
    criteria: catalog.criteria.map((c) => (c.knockout ? c : { ...c, weight: c.weight / sum })),
  };
}
