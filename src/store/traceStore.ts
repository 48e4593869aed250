/**
 * The trace store: every model call of an evaluation, beside the checkpoints, so a thread's state
 * holds only ids. One row per evaluation; shared prompt parts once per database (leanTrace.ts).
 * Rows of earlier versions (one per call, in evalgate_traces) are still read.
 */
import type Database from "better-sqlite3";
import { sql } from "kysely";
import type pg from "pg";
import { z } from "zod";
import type { Trace } from "../scoring/result.js";
import { StoreDatabase } from "./database.js";
import { evaluationRow, tracesOfEvaluationRows, wholeTrace } from "./leanTrace.js";
import { traceTablesSql } from "./migrations.js";

const StoredRows = z.array(
  z.object({ evaluation_id: z.string(), created_at: z.string(), body: z.string() }),
);
const BlobRows = z.array(z.object({ hash: z.string(), text: z.string() }));

/** Which traces to read: one evaluation's, or every evaluation's of a thread. */
export type TraceQuery = { evaluationId: string } | { threadId: string };

export interface TraceOwner {
  evaluationId: string;
  threadId?: string;
}

export interface EvaluationTraces {
  evaluationId: string;
  traces: Trace[];
}

export type TraceStore = Pick<
  SqlTraceStore,
  "kind" | "saveTraces" | "getTraces" | "getThreadEvaluations"
>;

const BLOBS_PER_STATEMENT = 500;

/** The tables made once per connection, however many stores share it. */
const tablesMade = new WeakMap<object, Promise<unknown>>();

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class SqlTraceStore {
  protected constructor(private readonly db: StoreDatabase) {}

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
   * The blobs first, in hash order (two saves sharing blobs never wait on each other in a cycle),
   * then the row: a reader never finds a row without its parts. No transaction is held across
   * awaits on a connection the checkpointer writes on too.
   */
  async saveTraces(owner: TraceOwner, traces: readonly Trace[]): Promise<void> {
    await this.ready();
    const first = traces[0];
    if (first === undefined) return;
    const { body, blobs } = evaluationRow(traces);
    for (let at = 0; at < blobs.length; at += BLOBS_PER_STATEMENT) {
      const pairs = blobs
        .slice(at, at + BLOBS_PER_STATEMENT)
        .map(([hash, text]) => sql`(${hash}, ${text})`);
      await this.db.run(
        sql`INSERT INTO evalgate_trace_blobs (hash, text) VALUES ${sql.join(pairs)}
            ON CONFLICT (hash) DO NOTHING`,
      );
    }
    await this.db.run(
      sql`INSERT INTO evalgate_evaluation_traces (evaluation_id, thread_id, created_at, body)
          VALUES (${owner.evaluationId}, ${owner.threadId ?? null}, ${first.timestamp}, ${body})
          ON CONFLICT (evaluation_id) DO NOTHING`,
    );
  }

  private async rows(table: string, then: string, query: TraceQuery) {
    await this.ready();
    const [column, value] =
      "evaluationId" in query
        ? ["evaluation_id", query.evaluationId]
        : ["thread_id", query.threadId];
    const rows = await this.db.all(
      sql`SELECT evaluation_id, created_at, body FROM ${sql.table(table)}
          WHERE ${sql.ref(column)} = ${value} ORDER BY created_at, ${sql.raw(then)}`,
    );
    return StoredRows.parse(rows);
  }

  private async readBlobs(hashes: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let at = 0; at < hashes.length; at += BLOBS_PER_STATEMENT) {
      const some = hashes.slice(at, at + BLOBS_PER_STATEMENT);
      const rows = await this.db.all(
        sql`SELECT hash, text FROM evalgate_trace_blobs WHERE hash IN (${sql.join(some)})`,
      );
      for (const row of BlobRows.parse(rows)) found.set(row.hash, row.text);
    }
    return found;
  }

  async getTraces(query: TraceQuery): Promise<Trace[]> {
    return (await this.evaluations(query)).flatMap((e) => e.traces);
  }

  async getThreadEvaluations(threadId: string): Promise<EvaluationTraces[]> {
    return this.evaluations({ threadId });
  }

  private async evaluations(query: TraceQuery): Promise<EvaluationTraces[]> {
    const [rows, calls] = await Promise.all([
      this.rows("evalgate_evaluation_traces", "evaluation_id", query),
      (await this.db.hasTable("evalgate_traces"))
        ? this.rows("evalgate_traces", "evaluation_id, seq", query)
        : [],
    ]);
    const traces = await tracesOfEvaluationRows(
      rows.map((row) => row.body),
      (hashes) => this.readBlobs(hashes),
    );
    const evaluations = rows.map((row, i) => ({
      evaluationId: row.evaluation_id,
      createdAt: row.created_at,
      traces: traces[i] ?? [],
    }));
    const groups = new Map<string, (typeof evaluations)[number]>();
    for (const row of calls) {
      const { evaluation_id: evaluationId, created_at: createdAt } = row;
      const group = groups.get(evaluationId) ?? { evaluationId, createdAt, traces: [] };
      group.traces.push(wholeTrace(row.body));
      groups.set(evaluationId, group);
    }
    evaluations.push(...groups.values());
    evaluations.sort(
      (a, b) => order(a.createdAt, b.createdAt) || order(a.evaluationId, b.evaluationId),
    );
    return evaluations.map(({ evaluationId, traces: list }) => ({ evaluationId, traces: list }));
  }
}

export class SqliteTraceStore extends SqlTraceStore {
  constructor(db: Database.Database) {
    super(StoreDatabase.on({ dialect: "sqlite", db }, false));
  }
}

export class PostgresTraceStore extends SqlTraceStore {
  constructor(pool: pg.Pool) {
    super(StoreDatabase.on({ dialect: "postgres", pool }, false));
  }
}
