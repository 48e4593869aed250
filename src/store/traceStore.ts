/**
 * The trace store: every model call of an evaluation (exact prompts, raw answer, parameters),
 * kept beside the checkpoints in the same database (SQLite here, PostgreSQL in
 * traceStorePostgres.ts), so a thread's state holds only the ids. JSONL stays an export.
 */
import type Database from "better-sqlite3";
import { z } from "zod";
import { type Trace, TraceSchema } from "../scoring/result.js";
import { parseUntrustedJson } from "../untrusted/json.js";
import { StoreDataError } from "./errors.js";

/** Which traces to read: one evaluation's, or every evaluation's of a thread. */
export type TraceQuery = { evaluationId: string } | { threadId: string };

/** Where a set of traces belongs. */
export interface TraceOwner {
  evaluationId: string;
  /** The graph thread the evaluation ran in, when it ran in one. */
  threadId?: string;
}

/** One evaluation's traces, in call order. */
export interface EvaluationTraces {
  evaluationId: string;
  traces: Trace[];
}

/** Keeps and reads the traces of evaluations. */
export interface TraceStore {
  readonly kind: "sqlite" | "postgres";
  /** Keeps the traces (in their order) under the evaluation; a trace kept already is left as is. */
  saveTraces(owner: TraceOwner, traces: readonly Trace[]): Promise<void>;
  /** The traces, oldest evaluation first and in call order within one. */
  getTraces(query: TraceQuery): Promise<Trace[]>;
  /** The thread's traces grouped by evaluation, oldest evaluation first. */
  getThreadEvaluations(threadId: string): Promise<EvaluationTraces[]>;
}

export const TRACE_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS evalgate_traces (
    id TEXT PRIMARY KEY,
    evaluation_id TEXT NOT NULL,
    thread_id TEXT,
    seq INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS evalgate_traces_evaluation ON evalgate_traces (evaluation_id, seq);
  CREATE INDEX IF NOT EXISTS evalgate_traces_thread
    ON evalgate_traces (thread_id, created_at, evaluation_id, seq);`;

/** A stored trace's text, read back through the schema (a row of another shape is reported). */
export function traceOfRow(body: string): Trace {
  const raw = parseUntrustedJson(
    body,
    (_problem, description) =>
      new StoreDataError(`a stored trace is not usable JSON: ${description}`),
  );
  const parsed = TraceSchema.safeParse(raw);
  if (!parsed.success) {
    throw new StoreDataError(`a stored trace is malformed: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** Rows of one thread (in the thread query's order) grouped by their evaluation. */
export function groupByEvaluation(
  rows: readonly { evaluation_id: string; body: string }[],
): EvaluationTraces[] {
  const groups = new Map<string, Trace[]>();
  for (const row of rows) {
    const traces = groups.get(row.evaluation_id) ?? [];
    traces.push(traceOfRow(row.body));
    groups.set(row.evaluation_id, traces);
  }
  return [...groups].map(([evaluationId, traces]) => ({ evaluationId, traces }));
}

/** Every trace of a thread, in evaluation and call order. */
export const THREAD_TRACES_SQL = `SELECT evaluation_id, body FROM evalgate_traces WHERE thread_id = ?
  ORDER BY created_at, evaluation_id, seq`;

/** The row values of one trace, in TRACE_TABLE_SQL's column order. */
export function traceRow(owner: TraceOwner, trace: Trace, seq: number) {
  return [
    trace.id,
    owner.evaluationId,
    owner.threadId ?? null,
    seq,
    trace.timestamp,
    JSON.stringify(TraceSchema.parse(trace)),
  ] as const;
}

/** The trace store in a SQLite database that is open already (the checkpoints' file). */
export class SqliteTraceStore implements TraceStore {
  readonly kind = "sqlite";
  private readonly db: Database.Database;

  constructor(db: Database.Database) {
    this.db = db;
    this.db.exec(TRACE_TABLE_SQL);
  }

  async saveTraces(owner: TraceOwner, traces: readonly Trace[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO evalgate_traces (id, evaluation_id, thread_id, seq, created_at, body)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      traces.forEach((trace, seq) => {
        insert.run(...traceRow(owner, trace, seq));
      });
    })();
  }

  async getTraces(query: TraceQuery): Promise<Trace[]> {
    const rows =
      "evaluationId" in query
        ? this.db
            .prepare("SELECT body FROM evalgate_traces WHERE evaluation_id = ? ORDER BY seq")
            .all(query.evaluationId)
        : this.db
            .prepare(
              `SELECT body FROM evalgate_traces WHERE thread_id = ?
               ORDER BY created_at, evaluation_id, seq`,
            )
            .all(query.threadId);
    return rows.map((row) => traceOfRow((row as { body: string }).body));
  }

  async getThreadEvaluations(threadId: string): Promise<EvaluationTraces[]> {
    const rows = this.db.prepare(THREAD_TRACES_SQL).all(threadId);
    return groupByEvaluation(rows as { evaluation_id: string; body: string }[]);
  }
}
