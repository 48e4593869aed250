/**
 * `calibrate --apply`: the thresholds the calibration report recommends, as a new version of a
 * catalog. A criterion moves to the threshold that would have agreed best with the reviewers only
 * when at least MIN_LABELS_TO_APPLY of its labels could be compared and that threshold agrees
 * better than the current one; every other criterion keeps its threshold, with the reason.
 */
import {
  type Catalog,
  MAX_EVIDENCE_LABELS,
  type ThresholdCalibration,
} from "../../criteria/model.js";
import type { CalibrationLabel } from "../calibrationLabel.js";
import { meetsThreshold } from "../consistency.js";
import { agreementTable, cohenKappa, observedAgreement } from "./kappa.js";
import { reviewerPassOf } from "./labelOutcome.js";
import { sweepThresholds } from "./thresholdSweep.js";

/** Compared labels a criterion needs before its threshold is changed. */
export const MIN_LABELS_TO_APPLY = 10;

export type ThresholdChange = ThresholdCalibration["changes"][number];

export interface ThresholdKept {
  criterionId: string;
  threshold: number;
  reason: string;
}

export interface ThresholdPlan {
  changes: ThresholdChange[];
  kept: ThresholdKept[];
}

/** The labels of a criterion that compare a judge score with a reviewer's pass/fail. */
function comparable(labels: readonly CalibrationLabel[]) {
  return labels.flatMap((label) => {
    const reviewerPass = reviewerPassOf(label);
    return label.judgeScore === null || reviewerPass === null
      ? []
      : [{ label, judgeScore: label.judgeScore, reviewerPass }];
  });
}

/**
 * Agreement and κ were the judge's pass/fail decided at `threshold`, each reviewer's pass/fail as
 * they gave it (the reviewer's view does not move with the threshold).
 */
function figuresAt(
  rows: ReadonlyArray<{ judgeScore: number; reviewerPass: boolean }>,
  threshold: number,
) {
  const table = agreementTable(
    rows.map((r) => ({ judge: meetsThreshold(r.judgeScore, threshold), reviewer: r.reviewerPass })),
  );
  return { agreement: observedAgreement(table).value ?? 0, kappa: cohenKappa(table).value };
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
    const rows = comparable(own);
    const keep = (reason: string) =>
      plan.kept.push({ criterionId: criterion.id, threshold: current, reason });
    if (rows.length < MIN_LABELS_TO_APPLY) {
      keep(`${rows.length} comparable label(s), fewer than the ${MIN_LABELS_TO_APPLY} needed`);
      continue;
    }
    // The report's sweep, from the catalog's own threshold: what the report recommends.
    const to = sweepThresholds(rows, current)?.best.threshold ?? current;
    const before = figuresAt(rows, current);
    const after = figuresAt(rows, to);
    if (to === current || after.agreement <= before.agreement) {
      keep("the current threshold agrees with the reviewers as well as any");
      continue;
    }
    plan.changes.push({
      criterionId: criterion.id,
      from: current,
      to,
      compared: rows.length,
      agreementBefore: before.agreement,
      agreementAfter: after.agreement,
      kappaBefore: before.kappa,
      kappaAfter: after.kappa,
      labelIds: rows
        .slice(0, MAX_EVIDENCE_LABELS)
        .map((r) => `${r.label.decisionId}#${r.label.criterionId}`),
    });
  }
  return plan;
}

export interface AppliedScope {
  since: string | null;
  until: string | null;
  contentType: string;
  appliedAt: string;
  appliedBy?: string;
}

/** The catalog with the plan's thresholds and the evidence for them (its version is for the registry to decide). */
export function catalogWithThresholds(
  catalog: Catalog,
  plan: ThresholdPlan,
  scope: AppliedScope,
): Catalog {
  const moved = new Map(plan.changes.map((c) => [c.criterionId, c.to]));
  return {
    ...catalog,
    criteria: catalog.criteria.map((criterion) => {
      const to = moved.get(criterion.id);
      return to === undefined ? criterion : { ...criterion, passingThreshold: to };
    }),
    calibration: { ...scope, changes: plan.changes },
  };
}
