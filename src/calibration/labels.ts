/** Calibration labels made from a reviewer's decision, read back page by page, and the report. */
import { z } from "zod";
import { registryVersionOf } from "../criteria/activeCatalog.js";
import { EvalgateError } from "../errors.js";
import {
  type CalibrationLabel,
  CalibrationLabelSchema,
  type ReviewAction,
  withAcceptedScore,
} from "../scoring/calibrationLabel.js";
import type { ResolvedCorrection } from "../scoring/corrections.js";
import type { EvaluationResult } from "../scoring/result.js";
import { buildCalibrationReport, type CalibrationScope } from "./report.js";
import type { CalibrationReport } from "./reportModel.js";

type LabelledDecision = Pick<
  CalibrationLabel,
  "decisionId" | "threadId" | "stage" | "contentType" | "reviewer" | "decidedAt" | "feedback"
> & { action: ReviewAction };

/** One label per criterion, `marked` where the reviewer corrected it; none for a retry. */
export function labelsOfDecision(
  { action, feedback, ...decision }: LabelledDecision,
  evaluation: EvaluationResult | null,
  corrections: readonly ResolvedCorrection[],
): CalibrationLabel[] {
  if (evaluation === null || action === "retry") return [];
  const byCriterion = new Map(corrections.map((c) => [c.criterionId, c]));
  return evaluation.criteria.map((criterion) => {
    const correction = byCriterion.get(criterion.id);
    const label: CalibrationLabel = {
      ...decision,
      evaluationId: evaluation.evaluationId ?? `${evaluation.catalog.id}@${evaluation.timestamp}`,
      action,
      ...(feedback === undefined ? {} : { feedback }),
      judgePassed: evaluation.passed,
      criterionId: criterion.id,
      criterionTitle: criterion.title,
      method: criterion.method,
      threshold: criterion.threshold,
      judgeScore: criterion.score,
      judgeMet: criterion.met,
      judgeNative: criterion.native,
      source: correction === undefined ? "accepted" : "marked",
      judgedWith: evaluation.catalog.registryVersion ?? registryVersionOf(evaluation.catalog),
    };
    if (correction === undefined) return withAcceptedScore(label);
    label.reviewerScore = correction.score;
    label.reviewerNative = correction.native;
    if (correction.note !== undefined) label.reviewerNote = correction.note;
    return label;
  });
}

/** One page of labels, oldest decision first, after the cursor. */
export interface CalibrationLabelPageQuery extends CalibrationScope {
  limit?: number;
  after?: { decidedAt: string; decisionId: string; criterionId: string };
}

/** Where labels are read from: the review store (SQLite or PostgreSQL) has this method. */
export interface CalibrationLabelSource {
  calibrationLabels(query: CalibrationLabelPageQuery): Promise<CalibrationLabel[]>;
}

interface CalibrationReportScope {
  since?: string | Date;
  until?: string | Date;
  contentType?: string;
  /** When the report was made (ISO 8601); now by default. */
  generatedAt?: string;
}

export type CalibrationReportOptions = CalibrationReportScope &
  ({ labels: readonly CalibrationLabel[] } | { store: CalibrationLabelSource });

const LABEL_PAGE = 1000;

function invalidInput(field: string, message: string): EvalgateError {
  return new EvalgateError("INVALID_INPUT", `${field}: ${message}`);
}

function calibrationTime(value: string | Date, field: string): string {
  const time = typeof value === "string" ? Date.parse(value.trim()) : value.getTime();
  if (Number.isNaN(time)) {
    const shown = String(value).slice(0, 60);
    throw invalidInput(
      field,
      `"${shown}" is not a date or time (expected ISO 8601, e.g. 2026-11-01)`,
    );
  }
  return new Date(time).toISOString();
}

/** The scope as ISO instants, `until` after `since` (INVALID_INPUT otherwise). */
export function resolveScope(options: CalibrationReportScope): CalibrationScope {
  const scope: CalibrationScope = {};
  if (options.since !== undefined) scope.since = calibrationTime(options.since, "since");
  if (options.until !== undefined) scope.until = calibrationTime(options.until, "until");
  if (options.contentType !== undefined) scope.contentType = options.contentType;
  if (scope.since !== undefined && scope.until !== undefined && scope.since >= scope.until) {
    throw invalidInput("until", `${scope.until} is not after since (${scope.since})`);
  }
  return scope;
}

function inScope(label: CalibrationLabel, scope: CalibrationScope): boolean {
  const decided = Date.parse(label.decidedAt);
  return (
    (scope.contentType === undefined || label.contentType === scope.contentType) &&
    (scope.since === undefined || decided >= Date.parse(scope.since)) &&
    (scope.until === undefined || decided < Date.parse(scope.until))
  );
}

export async function readCalibrationLabels(
  source: CalibrationLabelSource,
  scope: CalibrationScope,
): Promise<CalibrationLabel[]> {
  const labels: CalibrationLabel[] = [];
  for (;;) {
    const last = labels[labels.length - 1];
    const page = await source.calibrationLabels({
      ...scope,
      limit: LABEL_PAGE,
      after: last && {
        decidedAt: last.decidedAt,
        decisionId: last.decisionId,
        criterionId: last.criterionId,
      },
    });
    labels.push(...page);
    if (page.length < LABEL_PAGE) return labels;
  }
}

/**
 * The calibration report of the labels in the scope (given, or read from a store): κ, ρ, the
 * best threshold per criterion, and the criteria whose judge disagreed most.
 *
 * @example
 * const store = await openReviewStore({ sqlitePath: ".evalgate/checkpoints.sqlite" });
 * const report = await calibrationReport({ store, since: "2026-11-01" });
 * for (const row of report.disagreements) console.log(row.criterionId, row.rate);
 */
export async function calibrationReport(
  options: CalibrationReportOptions,
): Promise<CalibrationReport> {
  const scope = resolveScope(options);
  let labels: CalibrationLabel[];
  if ("labels" in options) {
    const parsed = z.array(CalibrationLabelSchema).safeParse(options.labels);
    if (!parsed.success) throw invalidInput("labels", z.prettifyError(parsed.error));
    labels = parsed.data.map(withAcceptedScore).filter((label) => inScope(label, scope));
  } else {
    labels = await readCalibrationLabels(options.store, scope);
  }
  return buildCalibrationReport(labels, { ...scope, generatedAt: options.generatedAt });
}
