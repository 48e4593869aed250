/**
 * Calibration label rows (the `calibration_labels` table) for both databases: the columns, the
 * values of a new row, a row read back (checked by the label schema) and the queries of labels.
 */
import { z } from "zod";
import type { CalibrationLabelPageQuery } from "../calibration/labels.js";
import type { ExampleQuery } from "../judge/exampleSource.js";
import {
  type CalibrationLabel,
  CalibrationLabelSchema,
  withAcceptedScore,
} from "../scoring/calibrationLabel.js";
import { readUntrustedJson } from "../untrusted/json.js";
import { storeDataInvalid } from "./errors.js";

/**
 * Which labels to list: decided at or after `since` and before `until` (ISO 8601 times, compared
 * as text, so a date such as `2026-11-01` works too), of one content type, oldest first, at most
 * `limit` (default 1000, at most 10 000) after the cursor `after` (the last label of the previous
 * page: its decidedAt, decisionId and criterionId).
 */
export type CalibrationLabelQuery = CalibrationLabelPageQuery;
/** The keyset position after which a page of labels starts (oldest first). */
export type CalibrationLabelCursor = NonNullable<CalibrationLabelQuery["after"]>;
/** A criterion's reviewer corrections decided before a time, newest first (at most 200). */
export type CorrectionLabelQuery = ExampleQuery;

const DEFAULT_LABEL_PAGE = 1000;
const MAX_LABEL_PAGE = 10_000;

/** Each column of `calibration_labels` and the label field it holds, in the inserts' order. */
const COLUMNS = [
  ["decision_id", "decisionId"],
  ["criterion_id", "criterionId"],
  ["thread_id", "threadId"],
  ["stage", "stage"],
  ["content_type", "contentType"],
  ["evaluation_id", "evaluationId"],
  ["reviewer", "reviewer"],
  ["decided_at", "decidedAt"],
  ["action", "action"],
  ["feedback", "feedback"],
  ["judge_passed", "judgePassed"],
  ["criterion_title", "criterionTitle"],
  ["method", "method"],
  ["threshold", "threshold"],
  ["judge_score", "judgeScore"],
  ["judge_met", "judgeMet"],
  ["judge_native", "judgeNative"],
  ["source", "source"],
  ["reviewer_score", "reviewerScore"],
  ["reviewer_native", "reviewerNative"],
  ["reviewer_note", "reviewerNote"],
] as const satisfies readonly (readonly [string, keyof CalibrationLabel])[];

/** Values kept as JSON text (a number or a text on the criterion's own scale). */
const NATIVE = new Set<string>(["judgeNative", "reviewerNative"]);
/** Fields whose null is a value (the judge gave none); any other null column is an absent field. */
const NULLABLE = new Set<string>(["judgeScore", "judgeMet"]);

/**
 * The values of a label row, in the order of COLUMNS; an accepted label is written with the
 * judge's score as the reviewer's (the score they accepted), whoever built it.
 */
export function labelValues(given: CalibrationLabel, booleans: "integer" | "boolean"): unknown[] {
  const label = withAcceptedScore(given);
  return COLUMNS.map(([, field]) => {
    const value = label[field];
    if (value === undefined || value === null) return null;
    if (NATIVE.has(field)) return JSON.stringify(value);
    return typeof value === "boolean" && booleans === "integer" ? Number(value) : value;
  });
}

/** The insert of labels (placeholders `?`), a label already there left as it is. */
export function insertLabelsSql(count: number, placeholder: (n: number) => string): string {
  let n = 0;
  const rows = Array.from(
    { length: count },
    () => `(${COLUMNS.map(() => placeholder(++n)).join(", ")})`,
  );
  return `INSERT INTO calibration_labels (${COLUMNS.map(([column]) => column).join(", ")}) VALUES ${rows.join(", ")}
    ON CONFLICT (decision_id, criterion_id) DO NOTHING`;
}

/** A column's value as the label field holds it: booleans from 0/1, native values from JSON. */
function fieldValue(field: string, value: unknown): unknown {
  if (field === "judgePassed" || field === "judgeMet") return value === true || value === 1;
  if (!NATIVE.has(field) || typeof value !== "string") return value;
  const read = readUntrustedJson(value);
  if (!read.ok) throw storeDataInvalid(`a calibration label's ${field}: not JSON`);
  return read.value;
}

/** A label row read back, checked by the label schema. */
export function labelOf(row: unknown): CalibrationLabel {
  const columns = z.record(z.string(), z.unknown()).safeParse(row);
  if (!columns.success) throw storeDataInvalid("a calibration label row is not a row");
  const r = columns.data;
  const fields: Record<string, unknown> = {};
  for (const [column, field] of COLUMNS) {
    const value = r[column];
    if (value !== null && value !== undefined) fields[field] = fieldValue(field, value);
    else if (NULLABLE.has(field)) fields[field] = null;
  }
  const label = CalibrationLabelSchema.safeParse(fields);
  if (!label.success) {
    const where = `decision ${String(r.decision_id)}, criterion ${String(r.criterion_id)}`;
    throw storeDataInvalid(`calibration label (${where}): ${z.prettifyError(label.error)}`);
  }
  return label.data;
}

/**
 * One page of labels in keyset order (decided_at, decision_id, criterion_id), with `?`
 * placeholders in the order of `params`; served by the decided_at or content type index.
 */
export function labelPageQuery(query: CalibrationLabelQuery): { sql: string; params: unknown[] } {
  const filters = [
    ["content_type = ?", query.contentType],
    ["decided_at >= ?", query.since],
    ["decided_at < ?", query.until],
  ].filter(([, value]) => value !== undefined);
  const where = filters.map(([condition]) => condition);
  const params: unknown[] = filters.map(([, value]) => value);
  if (query.after !== undefined) {
    const { decidedAt, decisionId, criterionId } = query.after;
    where.push("(decided_at, decision_id, criterion_id) > (?, ?, ?)");
    params.push(decidedAt, decisionId, criterionId);
  }
  const limit = Math.trunc(query.limit ?? DEFAULT_LABEL_PAGE);
  params.push(Math.min(MAX_LABEL_PAGE, Math.max(1, Number.isFinite(limit) ? limit : 1)));
  const filter = where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`;
  return {
    sql: `SELECT * FROM calibration_labels ${filter} ORDER BY decided_at, decision_id, criterion_id LIMIT ?`,
    params,
  };
}

/** The corrections (`source = 'marked'`) a CorrectionLabelQuery names, with `?` placeholders. */
export function correctionLabelsQuery(query: CorrectionLabelQuery): {
  sql: string;
  params: unknown[];
} {
  const byType = query.contentType === undefined ? "" : " AND content_type = ?";
  const limit = Math.min(200, Math.max(1, Math.trunc(query.limit) || 1));
  return {
    sql: `SELECT * FROM calibration_labels WHERE criterion_id = ? AND source = 'marked' AND decided_at < ?${byType}
      ORDER BY decided_at DESC, decision_id DESC LIMIT ?`,
    params: [
      query.criterionId,
      query.before,
      ...(query.contentType === undefined ? [] : [query.contentType]),
      limit,
    ],
  };
}

/** The labels of one thread, oldest decision first. */
export const THREAD_LABELS_SQL =
  "SELECT * FROM calibration_labels WHERE thread_id = ? ORDER BY decided_at, decision_id, criterion_id";

/** Labels of decisions the graph refused: they are not labels (the decision never took effect). */
export const REFUSED_LABELS_SQL =
  "DELETE FROM calibration_labels WHERE decision_id IN (SELECT id FROM decisions WHERE thread_id = ? AND refused_at IS NOT NULL)";
