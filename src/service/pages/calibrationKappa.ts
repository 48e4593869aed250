/**
 * One line that says why κ is 0 beside a high agreement: κ counts only the agreement beyond what
 * chance predicts from how often the judge and the reviewers each pass, and when (nearly) every
 * label passes, chance alone predicts nearly all of it — "everyone passed" is not the judge
 * agreeing with the reviewers. Shown under a table where such a row is.
 */

import type { AgreementTable, Figure } from "../../calibration/figures.js";
import { formatPercent } from "./calibrationText.js";

/** A row of figures: the agreement table behind it, its agreement and its κ. */
export interface KappaRow {
  name: string;
  table: AgreementTable;
  agreement: Figure;
  kappa: Figure;
}

/** κ this close to 0 reads as 0.00 (or −0.0x) in the tables. */
const KAPPA_NEAR_ZERO = 0.05;
/** Agreement from which a κ of 0 beside it needs saying why. */
const HIGH_AGREEMENT = 0.8;

/** Whether the row shows κ ≈ 0 beside a high agreement. */
export function isChanceAgreement(row: KappaRow): boolean {
  const { kappa, agreement } = row;
  return (
    kappa.value !== null &&
    Math.abs(kappa.value) < KAPPA_NEAR_ZERO &&
    agreement.value !== null &&
    agreement.value >= HIGH_AGREEMENT
  );
}

function passes(table: AgreementTable) {
  const n = table.bothPass + table.judgeOnlyPass + table.reviewerOnlyPass + table.bothFail;
  return {
    n,
    judge: table.bothPass + table.judgeOnlyPass,
    reviewers: table.bothPass + table.reviewerOnlyPass,
  };
}

/** The line for the rows that need it, or undefined when none does. */
export function kappaNote(rows: readonly KappaRow[]): string | undefined {
  const shown = rows.filter(isChanceAgreement);
  const first = shown[0];
  if (first === undefined || first.agreement.value === null) return undefined;
  const { n, judge, reviewers } = passes(first.table);
  const side = judge + reviewers >= n ? "passed" : "failed";
  const names = shown.map((row) => row.name).join(", ");
  return (
    "κ is 0 when the judge and the reviewers agree only as often as chance predicts from how " +
    `often each passes: here nearly every label ${side} (${names}: the judge passed ${judge} of ` +
    `${n}, the reviewers ${reviewers} of ${n}), so the ${formatPercent(first.agreement.value)} ` +
    "agreement says little about the judge."
  );
}
