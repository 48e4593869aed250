import { sql } from "kysely";
import { z } from "zod";
import type { CalibrationLabelPageQuery } from "../calibration/labels.js";
import type { ExampleQuery } from "../judge/exampleSource.js";
import {
  type CalibrationLabel,
  CalibrationLabelSchema,
  withAcceptedScore,
} from "../scoring/calibrationLabel.js";
import { rowReader } from "./database.js";

/** Which labels to list (see CalibrationLabelPageQuery). */
export type CalibrationLabelQuery = CalibrationLabelPageQuery;
export type CorrectionLabelQuery = ExampleQuery;

const DEFAULT_LABEL_PAGE = 1000;
const MAX_LABEL_PAGE = 10_000;

/** The label fields, each in the column of its snake_case name. */
const FIELDS = Object.keys(CalibrationLabelSchema.shape) as (keyof CalibrationLabel)[];

const COLUMNS = sql.join(
  FIELDS.map((field) => sql.ref(field.replace(/[A-Z]/g, "_$&").toLowerCase())),
);
/** Values kept as JSON text (a number or a text on the criterion's own scale). */
const NATIVE = new Set<string>(["judgeNative", "reviewerNative"]);
/** Fields whose null is a value (the judge gave none); any other null column is an absent field. */
const NULLABLE = new Set<string>(["judgeScore", "judgeMet"]);
const BOOLEANS = new Set<string>(["judgePassed", "judgeMet"]);

/** An accepted label is written with the judge's score as the reviewer's. */
function labelValues(given: CalibrationLabel, bool: (value: boolean) => boolean | number) {
  const label = withAcceptedScore(given);
  const values = FIELDS.map((field) => {
    const value = label[field];
    if (value === undefined || value === null) return null;
    if (NATIVE.has(field)) return JSON.stringify(value);
    return typeof value === "boolean" ? bool(value) : value;
  });
  return sql`(${sql.join(values)})`;
}

export function insertLabelsQuery(
  labels: readonly CalibrationLabel[],
  bool: (value: boolean) => boolean | number,
) {
  const rows = labels.map((label) => labelValues(label, bool));
  return sql`INSERT INTO calibration_labels (${COLUMNS}) VALUES ${sql.join(rows)}
    ON CONFLICT (decision_id, criterion_id) DO NOTHING`;
}

function labelFields(fields: unknown): Record<string, unknown> {
  const label: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields as object)) {
    if (value !== null) label[field] = BOOLEANS.has(field) ? value === true || value === 1 : value;
    else if (NULLABLE.has(field)) label[field] = null;
  }
  return label;
}

export const labelOf = rowReader(
  z.preprocess(labelFields, CalibrationLabelSchema),
  (r) =>
    `calibration label (decision ${String(r.decision_id)}, criterion ${String(r.criterion_id)})`,
  {
    json: ["judge_native", "reviewer_native"],
  },
);

/** One page of labels in keyset order, served by the decided_at or content type index. */
export function labelPageQuery(query: CalibrationLabelQuery) {
  const filters = [
    query.contentType === undefined ? undefined : sql`content_type = ${query.contentType}`,
    query.since === undefined ? undefined : sql`decided_at >= ${query.since}`,
    query.until === undefined ? undefined : sql`decided_at < ${query.until}`,
  ].filter((filter) => filter !== undefined);
  if (query.after !== undefined) {
    const { decidedAt, decisionId, criterionId } = query.after;
    filters.push(
      sql`(decided_at, decision_id, criterion_id) > (${decidedAt}, ${decisionId}, ${criterionId})`,
    );
  }
  const limit = Math.trunc(query.limit ?? DEFAULT_LABEL_PAGE);
  const page = Math.min(MAX_LABEL_PAGE, Math.max(1, Number.isFinite(limit) ? limit : 1));
  const where = filters.length === 0 ? sql`` : sql`WHERE ${sql.join(filters, sql` AND `)}`;
  return sql`SELECT * FROM calibration_labels ${where}
    ORDER BY decided_at, decision_id, criterion_id LIMIT ${page}`;
}

export function correctionLabelsQuery(query: CorrectionLabelQuery) {
  const byType =
    query.contentType === undefined ? sql`` : sql` AND content_type = ${query.contentType}`;
  const limit = Math.min(200, Math.max(1, Math.trunc(query.limit) || 1));
  return sql`SELECT * FROM calibration_labels
    WHERE criterion_id = ${query.criterionId} AND source = 'marked' AND decided_at < ${query.before}${byType}
    ORDER BY decided_at DESC, decision_id DESC LIMIT ${limit}`;
}
