/**
 * The calibration report from reviewer labels (pure). The reviewer's pass is the score the label
 * keeps for them (never the judge's side as it reads now, which a replay rewrites); on the gate,
 * only an approval is a reviewer's pass: a revision and an edit both say it was not ready.
 */

import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import { meetsThreshold } from "../scoring/consistency.js";
import { roundScore } from "../scoring/scale.js";
import { agreementFigures, type PassPair, type ScorePair, spearmanRho } from "./figures.js";
import type {
  CalibrationReport,
  CriterionCalibration,
  Disagreement,
  GateFigures,
  GroupFigures,
  ThresholdPoint,
  ThresholdSweep,
} from "./reportModel.js";

/** The sweep's grid: thresholds 0, 0.01, …, 1. */
const SWEEP_STEPS = 100;

export interface CalibrationScope {
  since?: string;
  until?: string;
  contentType?: string;
}

/** The judge's pass/fail on the criterion; null for a judge error. */
function judgePassOf(label: CalibrationLabel): boolean | null {
  if (label.judgeScore === null) return null;
  return label.judgeMet ?? meetsThreshold(label.judgeScore, label.threshold);
}

/** The reviewer's pass/fail on the criterion; null when there is nothing to compare. */
function reviewerPassOf(label: CalibrationLabel): boolean | null {
  if (label.reviewerScore === undefined) return null;
  return meetsThreshold(label.reviewerScore, label.threshold);
}

function scorePairs(labels: readonly CalibrationLabel[], markedOnly: boolean): ScorePair[] {
  return labels.flatMap((label) =>
    (markedOnly && label.source !== "marked") ||
    label.judgeScore === null ||
    label.reviewerScore === undefined
      ? []
      : [{ judge: label.judgeScore, reviewer: label.reviewerScore }],
  );
}

function groupFigures(labels: readonly CalibrationLabel[]): GroupFigures {
  const pairs = labels.flatMap((label): PassPair[] => {
    const [judge, reviewer] = [judgePassOf(label), reviewerPassOf(label)];
    return judge === null || reviewer === null ? [] : [{ judge, reviewer }];
  });
  const figures = agreementFigures(pairs);
  const { table } = figures;
  const count = table.judgeOnlyPass + table.reviewerOnlyPass;
  const sourced = (source: CalibrationLabel["source"]) =>
    labels.filter((label) => label.source === source).length;
  return {
    counts: {
      labels: labels.length,
      marked: sourced("marked"),
      accepted: sourced("accepted"),
      judgeErrors: labels.filter((label) => label.judgeScore === null).length,
      compared: pairs.length,
    },
    ...figures,
    spearmanMarked: spearmanRho(scorePairs(labels, true)),
    spearmanAll: spearmanRho(scorePairs(labels, false)),
    disagreements: {
      count,
      rate: pairs.length === 0 ? null : count / pairs.length,
      judgeTooLenient: table.judgeOnlyPass,
      judgeTooStrict: table.reviewerOnlyPass,
    },
  };
}

/**
 * A gate that did not pass while the judge could not answer a criterion and failed none it
 * answered: the fail is the error's (nothing evaluated, or a required criterion missing).
 */
function isGateJudgeError(decision: readonly CalibrationLabel[]): boolean {
  const first = decision[0] as CalibrationLabel;
  const answered = decision.filter((label) => label.judgeScore !== null);
  return (
    !first.judgePassed &&
    answered.length < decision.length &&
    answered.every((label) => judgePassOf(label) === true)
  );
}

/** One pair per decision (its labels all carry the same gate outcome and action). */
function gateFigures(labels: readonly CalibrationLabel[]): GateFigures {
  const grouped = [...groupsOf(labels, (l) => l.decisionId).values()];
  const decisions = grouped.map((group) => group[0] as CalibrationLabel);
  const judged = grouped.flatMap((group) =>
    isGateJudgeError(group) ? [] : [group[0] as CalibrationLabel],
  );
  const figures = agreementFigures(
    judged.map((d) => ({ judge: d.judgePassed, reviewer: d.action === "approve" })),
  );
  const actions = (action: CalibrationLabel["action"]) =>
    decisions.filter((decision) => decision.action === action).length;
  return {
    decisions: decisions.length,
    judgeErrors: decisions.length - judged.length,
    approve: actions("approve"),
    revise: actions("revise"),
    edit: actions("edit"),
    ...figures,
  };
}

/** The items by a key, the groups in order of first appearance. */
function groupsOf<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}

/** Oldest decision first; ties by decision, then criterion, so the order never depends on input. */
export function inDecisionOrder<T extends CalibrationLabel>(labels: readonly T[]): T[] {
  return [...labels].sort(
    (a, b) =>
      Date.parse(a.decidedAt) - Date.parse(b.decidedAt) ||
      a.decisionId.localeCompare(b.decisionId) ||
      a.criterionId.localeCompare(b.criterionId),
  );
}

/** The labels of each decision (one evaluation's), oldest decision first. */
export function byDecision(labels: readonly CalibrationLabel[]): CalibrationLabel[][] {
  const key = (label: CalibrationLabel) => `${label.decisionId}\u0000${label.evaluationId}`;
  return [...groupsOf(inDecisionOrder(labels), key).values()];
}

export interface SweepLabel {
  judgeScore: number;
  reviewerPass: boolean;
}

/** The labels with both a judge score and a reviewer's pass/fail: what a sweep can compare. */
export function sweepLabelsOf<T extends CalibrationLabel>(labels: readonly T[]) {
  return labels.flatMap((label) => {
    const reviewerPass = reviewerPassOf(label);
    return label.judgeScore === null || reviewerPass === null
      ? []
      : [{ ...label, judgeScore: label.judgeScore, reviewerPass }];
  });
}

function pointAt(labels: readonly SweepLabel[], threshold: number): ThresholdPoint {
  const agreed = labels.filter((l) => meetsThreshold(l.judgeScore, threshold) === l.reviewerPass);
  return { threshold, agreed: agreed.length, agreement: agreed.length / labels.length };
}

/** More labels agreed wins; on a tie, the threshold nearer the current one (a move needs a reason). */
function beats(candidate: ThresholdPoint, best: ThresholdPoint, current: number): boolean {
  if (candidate.agreed !== best.agreed) return candidate.agreed > best.agreed;
  const candidateDistance = roundScore(Math.abs(candidate.threshold - current));
  const bestDistance = roundScore(Math.abs(best.threshold - current));
  if (candidateDistance !== bestDistance) return candidateDistance < bestDistance;
  return candidate.threshold < best.threshold;
}

/** Thresholds 0–1 by 0.01; undefined under 2 labels (a best threshold for one is no finding). */
export function sweepThresholds(
  labels: readonly SweepLabel[],
  currentThreshold: number,
): ThresholdSweep | undefined {
  if (labels.length < 2) return undefined;
  const curve = Array.from({ length: SWEEP_STEPS + 1 }, (_, step) =>
    pointAt(labels, step / SWEEP_STEPS),
  );
  const current = pointAt(labels, currentThreshold);
  const best = curve.reduce((b, point) => (beats(point, b, currentThreshold) ? point : b), current);
  return { compared: labels.length, current, best, curve };
}

function groupBy(labels: readonly CalibrationLabel[], keyOf: (label: CalibrationLabel) => string) {
  return [...groupsOf(labels, keyOf).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One criterion's calibration (labels oldest first, so the last is the latest). */
function criterionCalibration(labels: CalibrationLabel[]): CriterionCalibration {
  const latest = labels[labels.length - 1] as CalibrationLabel;
  return {
    contentType: latest.contentType,
    criterionId: latest.criterionId,
    title: latest.criterionTitle,
    method: latest.method,
    threshold: latest.threshold,
    thresholdsSeen: [...new Set(labels.map((label) => label.threshold))].sort((a, b) => a - b),
    figures: groupFigures(labels),
    sweep: sweepThresholds(sweepLabelsOf(labels), latest.threshold) ?? null,
    markedScores: scorePairs(labels, true),
  };
}

/** Criteria that disagreed at least once: highest rate first, then most disagreements, then id. */
function rankDisagreements(criteria: readonly CriterionCalibration[]): Disagreement[] {
  const entries = criteria.flatMap(({ figures, contentType, criterionId, title }) => {
    const { count, rate, ...sides } = figures.disagreements;
    if (count === 0 || rate === null) return [];
    const { compared } = figures.counts;
    return [{ contentType, criterionId, title, disagreed: count, compared, rate, ...sides }];
  });
  return entries.sort(
    (a, b) =>
      b.rate - a.rate ||
      b.disagreed - a.disagreed ||
      a.contentType.localeCompare(b.contentType) ||
      a.criterionId.localeCompare(b.criterionId),
  );
}

export function buildCalibrationReport(
  labels: readonly CalibrationLabel[],
  options: CalibrationScope & { generatedAt?: string } = {},
): CalibrationReport {
  const ordered = inDecisionOrder(labels);
  const contentTypes = groupBy(ordered, (label) => label.contentType).map(
    ([contentType, group]) => ({
      contentType,
      judgedWith: [...new Set(group.flatMap((label) => label.judgedWith ?? []))].sort(),
      figures: groupFigures(group),
      gate: gateFigures(group),
      criteria: groupBy(group, (label) => label.criterionId).map(([, own]) =>
        criterionCalibration(own),
      ),
    }),
  );
  return {
    generatedAt: options.generatedAt ?? new Date().toISOString(),
    window: {
      since: options.since ?? null,
      until: options.until ?? null,
      contentType: options.contentType ?? null,
      firstDecision: ordered[0]?.decidedAt ?? null,
      lastDecision: ordered[ordered.length - 1]?.decidedAt ?? null,
    },
    overall: groupFigures(ordered),
    gate: gateFigures(ordered),
    contentTypes,
    disagreements: rankDisagreements(contentTypes.flatMap((group) => group.criteria)),
  };
}
