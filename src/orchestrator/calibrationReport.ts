/**
 * `calibrationReport()`: how well the judge agreed with the reviewers, from their labels — given
 * directly, or read from the review store page by page (by decision time, from the labels' own
 * indexed table).
 */
import { z } from "zod";
import { invalidInput } from "../desk/errors.js";
import {
  buildCalibrationReport,
  type CalibrationScope,
} from "../scoring/calibration/buildReport.js";
import type { CalibrationReport } from "../scoring/calibration/reportSchema.js";
import {
  type CalibrationLabel,
  CalibrationLabelSchema,
  withAcceptedScore,
} from "../scoring/calibrationLabel.js";

/** One page of labels, oldest decision first, after the cursor (the last label of the page before). */
export interface CalibrationLabelPageQuery {
  since?: string;
  until?: string;
  contentType?: string;
  limit?: number;
  after?: { decidedAt: string; decisionId: string; criterionId: string };
}

/** Where labels are read from: the review store (SQLite or PostgreSQL) has this method. */
export interface CalibrationLabelSource {
  calibrationLabels(query: CalibrationLabelPageQuery): Promise<CalibrationLabel[]>;
}

export interface CalibrationReportScope {
  /** Labels decided at or after this time (a Date, or an ISO 8601 date or time). */
  since?: string | Date;
  /** Labels decided before this time. */
  until?: string | Date;
  /** Only the labels of this content type. */
  contentType?: string;
  /** When the report was made (ISO 8601); now by default. */
  generatedAt?: string;
}

export type CalibrationReportOptions = CalibrationReportScope &
  ({ labels: readonly CalibrationLabel[] } | { store: CalibrationLabelSource });

const LABEL_PAGE = 1000;

/** A time bound as an ISO 8601 instant; a value that is no date is refused, naming the field. */
export function calibrationTime(value: string | Date, field: string): string {
  const time = typeof value === "string" ? Date.parse(value.trim()) : value.getTime();
  if (Number.isNaN(time)) {
    throw invalidInput(
      field,
      `"${String(value).slice(0, 60)}" is not a date or time (expected ISO 8601, e.g. 2026-11-01)`,
    );
  }
  return new Date(time).toISOString();
}

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
  if (scope.contentType !== undefined && label.contentType !== scope.contentType) return false;
  const decided = Date.parse(label.decidedAt);
  if (scope.since !== undefined && !(decided >= Date.parse(scope.since))) return false;
  if (scope.until !== undefined && !(decided < Date.parse(scope.until))) return false;
  return true;
}

/** Labels given as decided: checked, an accepted label's score kept as the reviewer's. */
function checkedLabels(labels: readonly CalibrationLabel[]): CalibrationLabel[] {
  const parsed = z.array(CalibrationLabelSchema).safeParse(labels);
  if (!parsed.success) throw invalidInput("labels", z.prettifyError(parsed.error));
  return parsed.data.map(withAcceptedScore);
}

/** Every label of the scope, page after page in the store's keyset order. */
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
      ...(last === undefined
        ? {}
        : {
            after: {
              decidedAt: last.decidedAt,
              decisionId: last.decisionId,
              criterionId: last.criterionId,
            },
          }),
    });
    labels.push(...page);
    if (page.length < LABEL_PAGE) return labels;
  }
}

/**
 * The calibration report of the reviewer labels in the scope: per content type and criterion,
 * Cohen's κ of the judge's pass/fail against the reviewer's, Spearman's ρ of the scores where the
 * reviewer gave one, the threshold that would have agreed best, and the criteria whose judge
 * disagreed most.
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
  const labels =
    "labels" in options
      ? checkedLabels(options.labels).filter((label) => inScope(label, scope))
      : await readCalibrationLabels(options.store, scope);
  return buildCalibrationReport(labels, {
    ...scope,
    ...(options.generatedAt === undefined ? {} : { generatedAt: options.generatedAt }),
  });
}
