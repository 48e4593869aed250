/**
 * Agreement between judges. Krippendorff's alpha over units (criteria) and coders (judges), from
 * the coincidence matrix, for nominal, ordinal and interval data; and the agreement of one unit
 * against its scale, where alpha has no expected disagreement of its own.
 * Both return the value as computed, float noise dropped: it is what `minAgreement` is compared
 * with. Rounding is for showing only ({@link agreementText}).
 */

import { roundScore } from "./scale.js";
import { cutDown } from "./shownScore.js";

/** The kind of data agreed on: categories, ranks, or distances. */
export type AgreementMetric = "nominal" | "ordinal" | "interval";

/** One unit's values, one per coder; null where a coder gave none. */
export type Unit = readonly (number | null)[];

interface Coincidences {
  values: number[];
  /** o[c][k]: coincidences of value c with value k, indexes into `values`. */
  o: number[][];
  /** n[c]: how often value c was pairable. */
  n: number[];
  total: number;
}

/** The coincidence matrix of the pairable units (two or more values). */
function coincidences(units: readonly Unit[]): Coincidences {
  const pairable = units
    .map((unit) => unit.filter((v): v is number => v !== null))
    .filter((unit) => unit.length >= 2);
  const values = [...new Set(pairable.flat())].sort((a, b) => a - b);
  const at = new Map(values.map((v, i) => [v, i]));
  const o = values.map(() => values.map(() => 0));
  for (const unit of pairable) {
    const weight = 1 / (unit.length - 1);
    for (let i = 0; i < unit.length; i++) {
      for (let j = 0; j < unit.length; j++) {
        if (i === j) continue;
        const c = at.get(unit[i] as number) as number;
        const k = at.get(unit[j] as number) as number;
        (o[c] as number[])[k] = ((o[c] as number[])[k] as number) + weight;
      }
    }
  }
  const n = o.map((row) => row.reduce((a, b) => a + b, 0));
  return { values, o, n, total: n.reduce((a, b) => a + b, 0) };
}

/** The squared difference δ² of values at indexes c and k under the metric. */
function delta2(metric: AgreementMetric, m: Coincidences, c: number, k: number): number {
  if (c === k) return 0;
  switch (metric) {
    case "nominal":
      return 1;
    case "interval":
      return ((m.values[c] as number) - (m.values[k] as number)) ** 2;
    case "ordinal": {
      const [lo, hi] = c < k ? [c, k] : [k, c];
      let sum = 0;
      for (let g = lo; g <= hi; g++) sum += m.n[g] as number;
      return (sum - ((m.n[c] as number) + (m.n[k] as number)) / 2) ** 2;
    }
  }
}

/**
 * Krippendorff's alpha, 1 − D_o / D_e (0: chance, below 0: systematic disagreement). Null with
 * fewer than two pairable units, or no variation at all (alpha undefined there).
 */
export function krippendorffAlpha(units: readonly Unit[], metric: AgreementMetric): number | null {
  const pairableUnits = units.filter((u) => u.filter((v) => v !== null).length >= 2).length;
  if (pairableUnits < 2) return null;
  const m = coincidences(units);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < m.values.length; c++) {
    for (let k = 0; k < m.values.length; k++) {
      const d = delta2(metric, m, c, k);
      observed += ((m.o[c] as number[])[k] as number) * d;
      expected += (m.n[c] as number) * (m.n[k] as number) * d;
    }
  }
  if (expected === 0) return null;
  return roundScore(1 - ((m.total - 1) * observed) / expected);
}

/** A scale for scaleAgreement: the values a judge may give, or a continuous range. */
export type AgreementScale =
  | { kind: "points"; points: readonly number[]; metric: AgreementMetric }
  | { kind: "range"; min: number; max: number };

/** Σ δ² over every ordered pair of the values: nominal 0 or 1, else the squared difference. */
function pairDisagreement(values: readonly number[], nominal: boolean): number {
  let sum = 0;
  for (const a of values) for (const b of values) sum += nominal ? Number(a !== b) : (a - b) ** 2;
  return sum;
}

/** The mean δ² of two independent draws from the scale, every value equally likely. */
function chanceDisagreement(scale: AgreementScale): number {
  if (scale.kind === "range") return (scale.max - scale.min) ** 2 / 6;
  const { points, metric } = scale;
  // With every value equally frequent, the ordinal distance is the rank distance.
  const positions = metric === "ordinal" ? points.map((_, i) => i) : points;
  return pairDisagreement(positions, metric === "nominal") / points.length ** 2;
}

/**
 * The judges' agreement on one criterion: alpha's form with D_e the δ² of random picks from the
 * scale, which stands in for the missing population of units (for interval data, r_wg). Null with
 * fewer than two values; ordinal values are their ranks among `points`.
 */
export function scaleAgreement(values: readonly number[], scale: AgreementScale): number | null {
  if (values.length < 2) return null;
  const metric = scale.kind === "range" ? "interval" : scale.metric;
  const positions =
    scale.kind === "points" && metric === "ordinal"
      ? values.map((v) => scale.points.indexOf(v))
      : values;
  const observed =
    pairDisagreement(positions, metric === "nominal") / (values.length * (values.length - 1));
  const expected = chanceDisagreement(scale);
  if (expected === 0) return null;
  return roundScore(1 - observed / expected);
}

/**
 * An agreement as shown (at most 3 decimals, "n/a" for null), cut toward minus infinity so that
 * a value under a minimum never shows as reaching it: 0.7995 shows 0.799, 2/3 shows 0.666.
 */
export function agreementText(value: number | null): string {
  return value === null ? "n/a" : String(Number(cutDown(value, 3)));
}

/** A panel's gaps as shown: "1 missing answer", "3 missing answers". */
export function missingAnswers(gaps: number): string {
  return `${gaps} missing answer${gaps === 1 ? "" : "s"}`;
}
