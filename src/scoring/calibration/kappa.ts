/**
 * Cohen's κ on two raters' pass/fail (the judge and the reviewer): how much more often they agree
 * than two raters with the same pass rates would by chance. κ = (po − pe) / (1 − pe), where po is
 * the share of labels on which they agree and pe = pJ·pR + (1 − pJ)(1 − pR) the agreement expected
 * from their pass rates pJ and pR alone.
 */
import { z } from "zod";
import { type Figure, figureOf, missingFigure } from "./figure.js";

/** The 2×2 table of judge pass/fail against reviewer pass/fail. */
export const AgreementTableSchema = z.object({
  /** Judge pass, reviewer pass. */
  bothPass: z.number().int().min(0),
  /** Judge pass, reviewer fail: the judge was more lenient than the reviewer. */
  judgeOnlyPass: z.number().int().min(0),
  /** Judge fail, reviewer pass: the judge was stricter than the reviewer. */
  reviewerOnlyPass: z.number().int().min(0),
  /** Judge fail, reviewer fail. */
  bothFail: z.number().int().min(0),
});
export type AgreementTable = z.infer<typeof AgreementTableSchema>;

/** One compared label: the judge's and the reviewer's pass/fail. */
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

/** po: the share of compared labels on which judge and reviewer agree (none when empty). */
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
