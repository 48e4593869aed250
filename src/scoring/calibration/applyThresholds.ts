/**
 * `calibrate --apply`: the thresholds the calibration report recommends, as a new version of a
 * catalog — fitted on the earlier labels and measured on the later ones (the time split of
 * timeSplit.ts), so a threshold that only fits the labels it was fitted on shows its drop. A
 * criterion moves to the threshold that would have agreed best with the earlier labels only when
 * at least MIN_LABELS_TO_APPLY of its labels could be compared (MIN_LABELS_PER_SIDE on each side
 * of the split) and that threshold agrees better with them than the current one; every other
 * criterion keeps its threshold, with the reason.
 */
import type { Catalog } from "../../criteria/model.js";
import {
  MAX_EVIDENCE_LABELS,
  type ThresholdCalibration,
} from "../../criteria/thresholdCalibration.js";
import type { CalibrationLabel } from "../calibrationLabel.js";
import { meetsThreshold } from "../consistency.js";
import { agreementTable, cohenKappa, observedAgreement } from "./kappa.js";
import { reviewerPassOf } from "./labelOutcome.js";
import { sweepThresholds } from "./thresholdSweep.js";
import { splitInTime } from "./timeSplit.js";

/** Compared labels a criterion needs before its threshold is changed. */
export const MIN_LABELS_TO_APPLY = 10;
/** Compared labels each side of the time split needs: to fit on, and to measure on. */
export const MIN_LABELS_PER_SIDE = 5;

export type ThresholdChange = ThresholdCalibration["changes"][number];
export type HeldOutFigures = NonNullable<ThresholdChange["heldOut"]>;

export interface ThresholdKept {
  criterionId: string;
  threshold: number;
  reason: string;
}

export interface ThresholdPlan {
  changes: ThresholdChange[];
  kept: ThresholdKept[];
}

interface Row {
  label: CalibrationLabel;
  judgeScore: number;
  reviewerPass: boolean;
  decidedAt: string;
  decisionId: string;
}

/** The labels of a criterion that compare a judge score with a reviewer's pass/fail. */
function comparable(labels: readonly CalibrationLabel[]): Row[] {
  return labels.flatMap((label) => {
    const reviewerPass = reviewerPassOf(label);
    if (label.judgeScore === null || reviewerPass === null) return [];
    const { judgeScore, decidedAt, decisionId } = label;
    return [{ label, judgeScore, reviewerPass, decidedAt, decisionId }];
  });
}

/**
 * Agreement and κ of the judge's pass/fail decided at `from` and at `to`, each reviewer's
 * pass/fail as they gave it (the reviewer's view does not move with the threshold).
 */
function figures(rows: readonly Row[], from: number, to: number) {
  const at = (threshold: number) => {
    const table = agreementTable(
      rows.map((r) => ({
        judge: meetsThreshold(r.judgeScore, threshold),
        reviewer: r.reviewerPass,
      })),
    );
    return { agreement: observedAgreement(table).value ?? 0, kappa: cohenKappa(table).value };
  };
  const [before, after] = [at(from), at(to)];
  return {
    compared: rows.length,
    agreementBefore: before.agreement,
    agreementAfter: after.agreement,
    kappaBefore: before.kappa,
    kappaAfter: after.kappa,
    labelIds: rows
      .slice(0, MAX_EVIDENCE_LABELS)
      .map((r) => `${r.label.decisionId}#${r.label.criterionId}`),
  };
}

/** The change of one criterion, or the reason it keeps its threshold. */
function planCriterion(
  criterionId: string,
  rows: readonly Row[],
  current: number,
): ThresholdChange | string {
  if (rows.length < MIN_LABELS_TO_APPLY) {
    return `${rows.length} comparable label(s), fewer than the ${MIN_LABELS_TO_APPLY} needed`;
  }
  const split = splitInTime(rows);
  const [earlier, later] = [split?.earlier.length ?? 0, split?.later.length ?? 0];
  if (split === undefined || earlier < MIN_LABELS_PER_SIDE || later < MIN_LABELS_PER_SIDE) {
    return `${earlier} label(s) decided before the later ${later}: each side of the time split needs ${MIN_LABELS_PER_SIDE}`;
  }
  // The report's sweep over the earlier labels, from the catalog's own threshold.
  const to = sweepThresholds(split.earlier, current)?.best.threshold ?? current;
  const inSample = figures(split.earlier, current, to);
  if (to === current || inSample.agreementAfter <= inSample.agreementBefore) {
    return "the current threshold agrees with the earlier labels as well as any";
  }
  return {
    criterionId,
    from: current,
    to,
    ...inSample,
    heldOut: { since: split.from, ...figures(split.later, current, to) },
  };
}

/** What to change, per criterion of the catalog, from the labels of one content type. */
export function planThresholds(
  catalog: Catalog,
  labels: readonly CalibrationLabel[],
  contentType: string,
): ThresholdPlan {
  const plan: ThresholdPlan = { changes: [], kept: [] };
  for (const criterion of catalog.criteria) {
    const current = criterion.passingThreshold ?? catalog.passingThreshold;
    const own = labels.filter(
      (l) => l.contentType === contentType && l.criterionId === criterion.id,
    );
    const planned = planCriterion(criterion.id, comparable(own), current);
    if (typeof planned !== "string") plan.changes.push(planned);
    else plan.kept.push({ criterionId: criterion.id, threshold: current, reason: planned });
  }
  return plan;
}

/** The changes whose agreement on the held-out (later) labels is lower than at the old threshold. */
export function heldOutDrops(plan: ThresholdPlan): ThresholdChange[] {
  return plan.changes.filter(
    (c) => c.heldOut !== undefined && c.heldOut.agreementAfter < c.heldOut.agreementBefore,
  );
}

export interface AppliedScope {
  since: string | null;
  until: string | null;
  contentType: string;
  appliedAt: string;
  appliedBy?: string;
}

/**
 * The catalog with the plan's thresholds and the evidence for them (its version is for the
 * registry to decide); a change whose held-out agreement dropped is marked `forced`.
 */
export function catalogWithThresholds(
  catalog: Catalog,
  plan: ThresholdPlan,
  scope: AppliedScope,
): Catalog {
  const moved = new Map(plan.changes.map((c) => [c.criterionId, c.to]));
  const dropped = new Set(heldOutDrops(plan));
  return {
    ...catalog,
    criteria: catalog.criteria.map((criterion) => {
      const to = moved.get(criterion.id);
      return to === undefined ? criterion : { ...criterion, passingThreshold: to };
    }),
    calibration: {
      ...scope,
      changes: plan.changes.map((c) => (dropped.has(c) ? { ...c, forced: true } : c)),
    },
  };
}
