/**
 * Builds the calibration report from reviewer labels: pure, no I/O. Labels are grouped by content
 * type, then by criterion; every group gets its counts and figures, every criterion its threshold
 * sweep, and the criteria are ranked by how often their judge disagreed with the reviewer.
 */
import type { CalibrationLabel } from "../calibrationLabel.js";
import { groupFigures, scorePairs } from "./criterionCalibration.js";
import { gateFigures } from "./gateAgreement.js";
import { judgePassOf, reviewerPassOf } from "./labelOutcome.js";
import type {
  CalibrationReport,
  ContentTypeCalibration,
  CriterionCalibration,
  Disagreement,
} from "./reportSchema.js";
import { type SweepLabel, sweepThresholds } from "./thresholdSweep.js";

export interface CalibrationScope {
  since?: string;
  until?: string;
  contentType?: string;
}

export interface BuildReportOptions extends CalibrationScope {
  /** When the report was made (ISO 8601); now by default. */
  generatedAt?: string;
}

/** Oldest decision first; ties by decision, then criterion, so the order never depends on input. */
function chronological(labels: readonly CalibrationLabel[]): CalibrationLabel[] {
  const key = (label: CalibrationLabel) => [label.decidedAt, label.decisionId, label.criterionId];
  return [...labels].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i += 1) {
      const order = (ka[i] ?? "").localeCompare(kb[i] ?? "");
      if (order !== 0) return order;
    }
    return 0;
  });
}

function groupBy(
  labels: readonly CalibrationLabel[],
  keyOf: (label: CalibrationLabel) => string,
): Map<string, CalibrationLabel[]> {
  const groups = new Map<string, CalibrationLabel[]>();
  for (const label of labels) {
    const key = keyOf(label);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [label]);
    else group.push(label);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function sweepLabels(labels: readonly CalibrationLabel[]): SweepLabel[] {
  const result: SweepLabel[] = [];
  for (const label of labels) {
    const reviewerPass = reviewerPassOf(label);
    if (label.judgeScore !== null && judgePassOf(label) !== null && reviewerPass !== null) {
      result.push({ judgeScore: label.judgeScore, reviewerPass });
    }
  }
  return result;
}

/** One criterion's calibration from its labels (oldest first, so the last is the latest). */
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
    sweep: sweepThresholds(sweepLabels(labels), latest.threshold) ?? null,
    markedScores: scorePairs(labels, true),
  };
}

function contentTypeCalibration(
  contentType: string,
  labels: CalibrationLabel[],
): ContentTypeCalibration {
  return {
    contentType,
    figures: groupFigures(labels),
    gate: gateFigures(labels),
    criteria: [...groupBy(labels, (label) => label.criterionId).values()].map(criterionCalibration),
  };
}

/** Criteria that disagreed at least once: highest rate first, then most disagreements, then id. */
export function rankDisagreements(criteria: readonly CriterionCalibration[]): Disagreement[] {
  const entries: Disagreement[] = [];
  for (const criterion of criteria) {
    const { disagreements, counts } = criterion.figures;
    if (disagreements.count === 0 || disagreements.rate === null) continue;
    entries.push({
      contentType: criterion.contentType,
      criterionId: criterion.criterionId,
      title: criterion.title,
      disagreed: disagreements.count,
      compared: counts.compared,
      rate: disagreements.rate,
      judgeTooLenient: disagreements.judgeTooLenient,
      judgeTooStrict: disagreements.judgeTooStrict,
    });
  }
  return entries.sort(
    (a, b) =>
      b.rate - a.rate ||
      b.disagreed - a.disagreed ||
      a.contentType.localeCompare(b.contentType) ||
      a.criterionId.localeCompare(b.criterionId),
  );
}

/** The calibration report of the labels (already limited to the scope the options name). */
export function buildCalibrationReport(
  labels: readonly CalibrationLabel[],
  options: BuildReportOptions = {},
): CalibrationReport {
  const ordered = chronological(labels);
  const contentTypes = [...groupBy(ordered, (label) => label.contentType).entries()].map(
    ([contentType, group]) => contentTypeCalibration(contentType, group),
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
