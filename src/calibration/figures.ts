/**
 * The statistics of calibration, each a Figure: a value, or null and why it has none.
 * - observed agreement: the share of compared labels on which judge and reviewer agree;
 * - Cohen's κ on pass/fail: κ = (po − pe) / (1 − pe), po the observed agreement and
 *   pe = pJ·pR + (1 − pJ)(1 − pR) the agreement expected from the two pass rates alone;
 * - Spearman's ρ: the Pearson correlation of the ranks, tied values sharing the average of the
 *   ranks they span (0.5, 0.7, 0.7, 0.9 rank 1, 2.5, 2.5, 4).
 */
import { z } from "zod";

/** Why a figure has no value; it is reported as "not enough labels", never as 0 or 1. */
const MissingFigureSchema = z.enum(["too-few-labels", "no-variance"]);
type MissingFigure = z.infer<typeof MissingFigureSchema>;

export const FigureSchema = z.union([
  z.object({ value: z.number(), missing: z.null() }),
  z.object({ value: z.null(), missing: MissingFigureSchema }),
]);
export type Figure = z.infer<typeof FigureSchema>;

const figureOf = (value: number): Figure => ({ value, missing: null });
const missingFigure = (missing: MissingFigure): Figure => ({ value: null, missing });

/** The 2×2 table of judge pass/fail against reviewer pass/fail. */
export const AgreementTableSchema = z.object({
  bothPass: z.number().int().min(0),
  /** Judge pass, reviewer fail: the judge was more lenient than the reviewer. */
  judgeOnlyPass: z.number().int().min(0),
  /** Judge fail, reviewer pass: the judge was stricter than the reviewer. */
  reviewerOnlyPass: z.number().int().min(0),
  bothFail: z.number().int().min(0),
});
export type AgreementTable = z.infer<typeof AgreementTableSchema>;

export interface PassPair {
  judge: boolean;
  reviewer: boolean;
}

export function agreementTable(pairs: readonly PassPair[]): AgreementTable {
  const table: AgreementTable = { bothPass: 0, judgeOnlyPass: 0, reviewerOnlyPass: 0, bothFail: 0 };
  for (const { judge, reviewer } of pairs) {
    if (judge && reviewer) table.bothPass += 1;
    else if (judge) table.judgeOnlyPass += 1;
    else if (reviewer) table.reviewerOnlyPass += 1;
    else table.bothFail += 1;
  }
  return table;
}

export function tableSize(table: AgreementTable): number {
  return table.bothPass + table.judgeOnlyPass + table.reviewerOnlyPass + table.bothFail;
}

export function observedAgreement(table: AgreementTable): Figure {
  const n = tableSize(table);
  if (n === 0) return missingFigure("too-few-labels");
  return figureOf((table.bothPass + table.bothFail) / n);
}

/**
 * Cohen's κ of the table. Missing with fewer than 2 labels, and when chance agreement is already
 * total (both raters put every label on the same side: κ is 0/0 there, not 1).
 */
export function cohenKappa(table: AgreementTable): Figure {
  const n = tableSize(table);
  if (n < 2) return missingFigure("too-few-labels");
  const po = (table.bothPass + table.bothFail) / n;
  const judgePass = (table.bothPass + table.judgeOnlyPass) / n;
  const reviewerPass = (table.bothPass + table.reviewerOnlyPass) / n;
  const pe = judgePass * reviewerPass + (1 - judgePass) * (1 - reviewerPass);
  if (1 - pe < 1e-12) return missingFigure("no-variance");
  return figureOf((po - pe) / (1 - pe));
}

/** The table of the pairs with its observed agreement and κ. */
export function agreementFigures(pairs: readonly PassPair[]) {
  const table = agreementTable(pairs);
  return { table, agreement: observedAgreement(table), kappa: cohenKappa(table) };
}

/** Ranks from 1 (the smallest value), ties sharing the average of their ranks. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length).fill(0);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.value === order[start]?.value) end += 1;
    // Positions start..end (0-based) hold ranks start+1..end+1; their average is the midpoint.
    for (let k = start; k <= end; k += 1) ranks[order[k]?.index ?? 0] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

function pearson(x: readonly number[], y: readonly number[]): Figure {
  const mean = (v: readonly number[]) => v.reduce((sum, a) => sum + a, 0) / v.length;
  const [meanX, meanY] = [mean(x), mean(y)];
  let [covariance, varianceX, varianceY] = [0, 0, 0];
  for (let i = 0; i < x.length; i += 1) {
    const dx = (x[i] ?? 0) - meanX;
    const dy = (y[i] ?? 0) - meanY;
    covariance += dx * dy;
    varianceX += dx * dx;
    varianceY += dy * dy;
  }
  if (varianceX < 1e-12 || varianceY < 1e-12) return missingFigure("no-variance");
  // Rounding can push a perfect correlation a hair past ±1.
  return figureOf(Math.max(-1, Math.min(1, covariance / Math.sqrt(varianceX * varianceY))));
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
    averageRanks(pairs.map((p) => p.judge)),
    averageRanks(pairs.map((p) => p.reviewer)),
  );
}
