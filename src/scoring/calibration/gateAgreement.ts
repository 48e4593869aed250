/**
 * Agreement on the gate as a whole: one pair per reviewer decision — whether the judge's gate
 * passed the content, and whether the reviewer approved it (revise and edit count as "not
 * passed": the reviewer did not let the content go on as judged).
 */
import { z } from "zod";
import type { CalibrationLabel } from "../calibrationLabel.js";
import { FigureSchema } from "./figure.js";
import { AgreementTableSchema, agreementTable, cohenKappa, observedAgreement } from "./kappa.js";
import { reviewerGatePass } from "./labelOutcome.js";

export const GateFiguresSchema = z.object({
  decisions: z.number().int().min(0),
  approve: z.number().int().min(0),
  revise: z.number().int().min(0),
  edit: z.number().int().min(0),
  /** Judge's gate passed vs reviewer approved. */
  table: AgreementTableSchema,
  agreement: FigureSchema,
  kappa: FigureSchema,
});
export type GateFigures = z.infer<typeof GateFiguresSchema>;

/** One decision per decision id (its labels all carry the same gate outcome and action). */
function decisionsOf(labels: readonly CalibrationLabel[]): CalibrationLabel[] {
  const byId = new Map<string, CalibrationLabel>();
  for (const label of labels) {
    if (!byId.has(label.decisionId)) byId.set(label.decisionId, label);
  }
  return [...byId.values()];
}

export function gateFigures(labels: readonly CalibrationLabel[]): GateFigures {
  const decisions = decisionsOf(labels);
  const table = agreementTable(
    decisions.map((decision) => ({
      judge: decision.judgePassed,
      reviewer: reviewerGatePass(decision.action),
    })),
  );
  const actions = (action: CalibrationLabel["action"]) =>
    decisions.filter((decision) => decision.action === action).length;
  return {
    decisions: decisions.length,
    approve: actions("approve"),
    revise: actions("revise"),
    edit: actions("edit"),
    table,
    agreement: observedAgreement(table),
    kappa: cohenKappa(table),
  };
}
