/**
 * Calibration label rows (the `calibration_labels` table) for both databases: the columns, the
 * values of a new row, a row read back (checked by the label schema) and the query of one page of
 * labels by decision time.
 */
import { z } from "zod";
import {
  type CalibrationLabel,
  CalibrationLabelSchema,
  withAcceptedScore,
} from "../scoring/calibrationLabel.js";
import { readUntrustedJson } from "../untrusted/json.js";
import { storeDataInvalid } from "./errors.js";

/** The keyset position after which a page of labels starts (oldest first). */
export interface CalibrationLabelCursor {
  decidedAt: string;
  decisionId: string;
  criterionId: string;
}

/**
 * Which labels to list: decided at or after `since` and before `until` (ISO 8601 times, compared
 * as text, so a date such as `2026-11-01` works too), of one content type, oldest first, at most
 * `limit` (default 1000, at most 10 000) after the cursor `after` (the last label of the previous
 * page: its decidedAt, decisionId and criterionId).
 */
export interface CalibrationLabelQuery {
  since?: string;
  until?: string;
  contentType?: string;
  limit?: number;
  after?: CalibrationLabelCursor;
}

export const DEFAULT_LABEL_PAGE = 1000;
export const MAX_LABEL_PAGE = 10_000;

export const LABEL_COLUMNS = [
  "decision_id",
  "criterion_id",
  "thread_id",
  "stage",
  "content_type",
  "evaluation_id",
  "reviewer",
  "decided_at",
  "action",
  "feedback",
  "judge_passed",
  "criterion_title",
  "method",
  "threshold",
  "judge_score",
  "judge_met",
  "judge_native",
  "source",
  "reviewer_score",
  "reviewer_native",
  "reviewer_note",
] as const;

function booleanValue(value: boolean | null, booleans: "integer" | "boolean") {
  if (value === null || booleans === "boolean") return value;
  return value ? 1 : 0;
}

function nativeText(value: number | string | null | undefined): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/**
 * The values of a label row, in the order of LABEL_COLUMNS; an accepted label is written with the
 * judge's score as the reviewer's (the score they accepted), whoever built it.
 */
export function labelValues(given: CalibrationLabel, booleans: "integer" | "boolean"): unknown[] {
  const label = withAcceptedScore(given);
  return [
    label.decisionId,
    label.criterionId,
    label.threadId,
    label.stage,
    label.contentType,
    label.evaluationId,
    label.reviewer,
    label.decidedAt,
    label.action,
    label.feedback ?? null,
    booleanValue(label.judgePassed, booleans),
    label.criterionTitle,
    label.method,
    label.threshold,
    label.judgeScore,
    booleanValue(label.judgeMet, booleans),
    nativeText(label.judgeNative),
    label.source,
    label.reviewerScore ?? null,
    nativeText(label.reviewerNative),
    label.reviewerNote ?? null,
  ];
}

/** The insert of labels (placeholders `?`), a label already there left as it is. */
export function insertLabelsSql(count: number, placeholder: (n: number) => string): string {
  let n = 0;
  const rows = Array.from(
    { length: count },
    () => `(${LABEL_COLUMNS.map(() => placeholder(++n)).join(", ")})`,
  );
  return `INSERT INTO calibration_labels (${LABEL_COLUMNS.join(", ")}) VALUES ${rows.join(", ")}
    ON CONFLICT (decision_id, criterion_id) DO NOTHING`;
}

const booleanColumn = z.union([z.boolean(), z.number()]).transform((v) => v === true || v === 1);
const optionalText = z
  .string()
  .nullable()
  .transform((v) => v ?? undefined);
const nativeColumn = z
  .string()
  .nullable()
  .transform((text, ctx) => {
    if (text === null) return null;
    const read = readUntrustedJson(text);
    if (read.ok && (typeof read.value === "number" || typeof read.value === "string")) {
      return read.value;
    }
    ctx.addIssue({ code: "custom", message: "not a number or a text in JSON" });
    return z.NEVER;
  });

const LabelColumns = z.object({
  decision_id: z.string(),
  criterion_id: z.string(),
  thread_id: z.string(),
  stage: z.string(),
  content_type: z.string(),
  evaluation_id: z.string(),
  reviewer: z.string(),
  decided_at: z.string(),
  action: z.string(),
  feedback: optionalText,
  judge_passed: booleanColumn,
  criterion_title: z.string(),
  method: z.string(),
  threshold: z.number(),
  judge_score: z.number().nullable(),
  judge_met: booleanColumn.nullable(),
  judge_native: nativeColumn,
  source: z.string(),
  reviewer_score: z.number().nullable(),
  reviewer_native: nativeColumn,
  reviewer_note: optionalText,
});

/** A label row read back, checked by the label schema. */
export function labelOf(row: unknown): CalibrationLabel {
  const columns = LabelColumns.safeParse(row);
  if (!columns.success) {
    throw storeDataInvalid(`a calibration label row: ${z.prettifyError(columns.error)}`);
  }
  const r = columns.data;
  const label = CalibrationLabelSchema.safeParse({
    decisionId: r.decision_id,
    threadId: r.thread_id,
    stage: r.stage,
    contentType: r.content_type,
    evaluationId: r.evaluation_id,
    reviewer: r.reviewer,
    decidedAt: r.decided_at,
    action: r.action,
    ...(r.feedback === undefined ? {} : { feedback: r.feedback }),
    judgePassed: r.judge_passed,
    criterionId: r.criterion_id,
    criterionTitle: r.criterion_title,
    method: r.method,
    threshold: r.threshold,
    judgeScore: r.judge_score,
    judgeMet: r.judge_met,
    ...(r.judge_native === null ? {} : { judgeNative: r.judge_native }),
    source: r.source,
    ...(r.reviewer_score === null ? {} : { reviewerScore: r.reviewer_score }),
    ...(r.reviewer_native === null ? {} : { reviewerNative: r.reviewer_native }),
    ...(r.reviewer_note === undefined ? {} : { reviewerNote: r.reviewer_note }),
  });
  if (!label.success) {
    const where = `decision ${r.decision_id}, criterion ${r.criterion_id}`;
    throw storeDataInvalid(`calibration label (${where}): ${z.prettifyError(label.error)}`);
  }
  return label.data;
}

/**
 * One page of labels in keyset order (decided_at, decision_id, criterion_id), with `?`
 * placeholders in the order of `params`; served by the decided_at or content type index.
 */
export function labelPageQuery(query: CalibrationLabelQuery): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.contentType !== undefined) {
    where.push("content_type = ?");
    params.push(query.contentType);
  }
  if (query.since !== undefined) {
    where.push("decided_at >= ?");
    params.push(query.since);
  }
  if (query.until !== undefined) {
    where.push("decided_at < ?");
    params.push(query.until);
  }
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

/** A criterion's reviewer corrections decided before a time, newest first (few-shot examples). */
export interface CorrectionLabelQuery {
  criterionId: string;
  contentType?: string;
  /** ISO 8601 instant: only labels decided strictly before it. */
  before: string;
  /** At most this many (1–200). */
  limit: number;
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
