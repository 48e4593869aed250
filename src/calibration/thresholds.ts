/**
 * Thresholds from reviewer labels, split in time: `--apply` fits on the earlier labels and
 * measures on the later ones, so a threshold that only fits what it was fitted on shows.
 */
import type { Catalog, Criterion } from "../criteria/model.js";
import {
  MAX_EVIDENCE_LABELS,
  type ThresholdCalibration,
} from "../criteria/thresholdCalibration.js";
import { minScoreOf } from "../criteria/thresholdCheck.js";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import { meetsThreshold } from "../scoring/consistency.js";
import { agreementFigures } from "./figures.js";
import { inDecisionOrder, type SweepLabel, sweepLabelsOf, sweepThresholds } from "./report.js";

/** Compared labels a criterion needs before its threshold is changed. */
export const MIN_LABELS_TO_APPLY = 10;
/** Compared labels each side of the time split needs: to fit on, and to measure on. */
const MIN_LABELS_PER_SIDE = 5;

/** Split near the middle; labels decided at the split time all go later, so none is on both sides. */
function splitInTime(labels: readonly Row[]) {
  const ordered = inDecisionOrder(labels);
  const middle = ordered[Math.ceil(ordered.length / 2)];
  if (ordered.length < 2 || middle === undefined) return undefined;
  const from = middle.decidedAt;
  const before = (label: Row) => Date.parse(label.decidedAt) < Date.parse(from);
  return { earlier: ordered.filter(before), later: ordered.filter((l) => !before(l)), from };
}

export type ThresholdChange = ThresholdCalibration["changes"][number];

export interface ThresholdPlan {
  changes: ThresholdChange[];
  kept: { criterionId: string; threshold: number; reason: string }[];
}

type Row = CalibrationLabel & SweepLabel;

/** Agreement and κ at `from` and at `to` (the reviewer's view does not move with the threshold). */
function figures(rows: readonly Row[], from: number, to: number) {
  const at = (threshold: number) => {
    const { agreement, kappa } = agreementFigures(
      rows.map((r) => ({
        judge: meetsThreshold(r.judgeScore, threshold),
        reviewer: r.reviewerPass,
      })),
    );
    return { agreement: agreement.value ?? 0, kappa: kappa.value };
  };
  const [before, after] = [at(from), at(to)];
  return {
    compared: rows.length,
    agreementBefore: before.agreement,
    agreementAfter: after.agreement,
    kappaBefore: before.kappa,
    kappaAfter: after.kappa,
    labelIds: rows.slice(0, MAX_EVIDENCE_LABELS).map((r) => `${r.decisionId}#${r.criterionId}`),
  };
}

/** The change of one criterion, or the reason it keeps its threshold. */
function planCriterion(
  criterion: Criterion,
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
  if (to <= minScoreOf(criterion) + 1e-9) {
    return `the threshold that agrees best with the earlier labels, ${to.toFixed(2)}, would pass every answer`;
  }
  const heldOut = { since: split.from, ...figures(split.later, current, to) };
  return { criterionId: criterion.id, from: current, to, ...inSample, heldOut };
}

/** What to change, per criterion of the catalog, from the labels of one content type. */
export function planThresholds(
  catalog: Catalog,
  labels: readonly CalibrationLabel[],
  contentType: string,
): ThresholdPlan {
  const plan: ThresholdPlan = { changes: [], kept: [] };
  for (const criterion of catalog.criteria) {
    const { id } = criterion;
    const current = criterion.passingThreshold ?? catalog.passingThreshold;
    const rows = sweepLabelsOf(
      labels.filter((label) => label.contentType === contentType && label.criterionId === id),
    );
    const planned = planCriterion(criterion, rows, current);
    if (typeof planned !== "string") plan.changes.push(planned);
    else plan.kept.push({ criterionId: id, threshold: current, reason: planned });
  }
  return plan;
}

/** The changes whose agreement on the held-out (later) labels is lower than at the old threshold. */
export function heldOutDrops(plan: ThresholdPlan): ThresholdChange[] {
  return plan.changes.filter(
    (c) => c.heldOut !== undefined && c.heldOut.agreementAfter < c.heldOut.agreementBefore,
  );
}

/** The catalog with the plan's thresholds; a change whose held-out agreement dropped is `forced`. */
export function catalogWithThresholds(
  catalog: Catalog,
  plan: ThresholdPlan,
  scope: Omit<ThresholdCalibration, "changes">,
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
