/**
 * The trace store: every model call of an evaluation (exact prompts, raw answer, parameters),
 * kept beside the checkpoints in the same database (SQLite or PostgreSQL), so a thread's state holds only the ids. One row per evaluation; the
 * parts its calls share are kept once per database, by hash (leanTrace.ts). Rows of earlier
 * versions (one per call, in evalgate_traces) are read as they are. JSONL stays an export.
 */
import type Database from "better-sqlite3";
import { sql } from "kysely";
import { z } from "zod";
import type { Trace } from "../scoring/result.js";
import { StoreDatabase, withValues } from "./database.js";
import { type BlobReader, evaluationRow, tracesOfEvaluationRows, wholeTrace } from "./leanTrace.js";
import { traceTablesSql } from "./migrations.js";

const StoredRows = z.array(
  z.object({ evaluation_id: z.string(), created_at: z.string(), body: z.string() }),
);
const BlobRows = z.array(z.object({ hash: z.string(), text: z.string() }));

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
  /**
   * Keeps the traces (in their order) under the evaluation; an evaluation kept already is left as
   * it is, and an evaluation without traces leaves nothing.
   */
  saveTraces(owner: TraceOwner, traces: readonly Trace[]): Promise<void>;
  /** The traces, oldest evaluation first and in call order within one. */
  getTraces(query: TraceQuery): Promise<Trace[]>;
  /** The thread's traces grouped by evaluation, oldest evaluation first. */
  getThreadEvaluations(threadId: string): Promise<EvaluationTraces[]>;
}

/** A stored row: an evaluation's (all its calls), or one call of an earlier version. */
export interface StoredRow {
  evaluation_id: string;
  created_at: string;
  body: string;
}

/** Reads the rows a query names, from either table, and the blobs they refer to. */
export interface TraceRowReader {
  evaluationRows(query: TraceQuery): Promise<StoredRow[]>;
  /** Rows of the per-call table of earlier versions (none when the database has no such table). */
  callRows(query: TraceQuery): Promise<StoredRow[]>;
  blobs: BlobReader;
}

/** The query's column and value, for `WHERE <column> = ?`. */
export function queryKey(query: TraceQuery): { column: string; value: string } {
  return "evaluationId" in query
    ? { column: "evaluation_id", value: query.evaluationId }
    : { column: "thread_id", value: query.threadId };
}

export const EVALUATION_ROWS_SQL = (column: string) =>
  `SELECT evaluation_id, created_at, body FROM evalgate_evaluation_traces WHERE ${column} = ?
   ORDER BY created_at, evaluation_id`;
export const CALL_ROWS_SQL = (column: string) =>
  `SELECT evaluation_id, created_at, body FROM evalgate_traces WHERE ${column} = ?
   ORDER BY created_at, evaluation_id, seq`;

/** Rows of earlier versions grouped by evaluation, in the rows' order. */
function callGroups(rows: readonly StoredRow[]) {
  const groups = new Map<string, { createdAt: string; traces: Trace[] }>();
  for (const row of rows) {
    const group = groups.get(row.evaluation_id);
    if (group === undefined) {
      groups.set(row.evaluation_id, { createdAt: row.created_at, traces: [wholeTrace(row.body)] });
    } else group.traces.push(wholeTrace(row.body));
  }
  return [...groups].map(([evaluationId, group]) => ({ evaluationId, ...group }));
}

/** The evaluations a query names, from both tables, oldest first (then by evaluation id). */
export async function readEvaluations(
  reader: TraceRowReader,
  query: TraceQuery,
): Promise<EvaluationTraces[]> {
  const [rows, calls] = await Promise.all([reader.evaluationRows(query), reader.callRows(query)]);
  const traces = await tracesOfEvaluationRows(
    rows.map((row) => row.body),
    reader.blobs,
  );
  const evaluations = [
    ...rows.map((row, i) => ({
      evaluationId: row.evaluation_id,
      createdAt: row.created_at,
      traces: traces[i] ?? [],
    })),
    ...callGroups(calls),
  ];
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  evaluations.sort(
    (a, b) => order(a.createdAt, b.createdAt) || order(a.evaluationId, b.evaluationId),
  );
  return evaluations.map(({ evaluationId, traces: list }) => ({ evaluationId, traces: list }));
}

/** What one save writes: the evaluation's row (undefined without traces) and its blobs. */
export function traceWrites(owner: TraceOwner, traces: readonly Trace[]) {
  const first = traces[0];
  if (first === undefined) return undefined;
  const { body, blobs } = evaluationRow(traces);
  const row = [owner.evaluationId, owner.threadId ?? null, first.timestamp, body] as const;
  return { row, blobs };
}

/** At most this many blobs are read, or written, in one statement. */
export const BLOBS_PER_READ = 500;

/** The tables made once per connection, however many stores share it. */
const tablesMade = new WeakMap<object, Promise<unknown>>();

/**
 * The trace store, written once over the dialect layer, on a connection that is open already
 * (the checkpoints' SQLite file or PostgreSQL pool, which stays its owner's).
 */
export class SqlTraceStore implements TraceStore {
  private readonly reader: TraceRowReader;

  protected constructor(private readonly db: StoreDatabase) {
    this.reader = {
      evaluationRows: (query) => this.rows(EVALUATION_ROWS_SQL, query),
      callRows: async (query) =>
        (await this.db.hasTable("evalgate_traces")) ? this.rows(CALL_ROWS_SQL, query) : [],
      blobs: (hashes) => this.readBlobs(hashes),
    };
  }

  get kind(): "sqlite" | "postgres" {
    return this.db.dialect;
  }

  private ready(): Promise<unknown> {
    const native = this.db.native;
    const key = native.dialect === "sqlite" ? native.db : native.pool;
    let made = tablesMade.get(key);
    if (made === undefined) {
      made = this.db.script(traceTablesSql(this.db.words));
      tablesMade.set(key, made);
      made.catch(() => tablesMade.delete(key));
    }
    return made;
  }

  /**
   * The blobs first (in hash order, so two saves sharing blobs never wait on each other in a
   * cycle), then the evaluation's row that refers to them: a reader never finds a row without its
   * parts. Each statement commits on its own — no transaction is held open across awaits on a
   * connection the checkpointer writes on too; a save cut short leaves only unreferenced blobs.
   */
  async saveTraces(owner: TraceOwner, traces: readonly Trace[]): Promise<void> {
    await this.ready();
    const writes = traceWrites(owner, traces);
    if (writes === undefined) return;
    for (let at = 0; at < writes.blobs.length; at += BLOBS_PER_READ) {
      const pairs = writes.blobs
        .slice(at, at + BLOBS_PER_READ)
        .map(([hash, text]) => sql`(${hash}, ${text})`);
      await this.db.run(
        sql`INSERT INTO evalgate_trace_blobs (hash, text) VALUES ${sql.join(pairs)}
            ON CONFLICT (hash) DO NOTHING`,
      );
    }
    const [evaluationId, threadId, createdAt, body] = writes.row;
    await this.db.run(
      sql`INSERT INTO evalgate_evaluation_traces (evaluation_id, thread_id, created_at, body)
          VALUES (${evaluationId}, ${threadId}, ${createdAt}, ${body})
          ON CONFLICT (evaluation_id) DO NOTHING`,
    );
  }

  private async rows(text: (column: string) => string, query: TraceQuery): Promise<StoredRow[]> {
    await this.ready();
    const { column, value } = queryKey(query);
    return StoredRows.parse(await this.db.all(withValues(text(column), [value])));
  }

  private async readBlobs(hashes: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let at = 0; at < hashes.length; at += BLOBS_PER_READ) {
      const some = hashes.slice(at, at + BLOBS_PER_READ);
      const rows = await this.db.all(
        sql`SELECT hash, text FROM evalgate_trace_blobs WHERE hash IN (${sql.join(some)})`,
      );
      for (const row of BlobRows.parse(rows)) found.set(row.hash, row.text);
    }
    return found;
  }

  async getTraces(query: TraceQuery): Promise<Trace[]> {
    return (await readEvaluations(this.reader, query)).flatMap((e) => e.traces);
  }

  async getThreadEvaluations(threadId: string): Promise<EvaluationTraces[]> {
    return readEvaluations(this.reader, { threadId });
  }
}

/** The trace store in a SQLite database that is open already (the checkpoints' file). */
export class SqliteTraceStore extends SqlTraceStore {
  constructor(db: Database.Database) {
    super(StoreDatabase.on({ dialect: "sqlite", db }, false));
  }
}
