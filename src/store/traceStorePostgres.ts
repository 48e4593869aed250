/** The trace store on PostgreSQL, on a pool that is open already (the checkpoints' database). */
import type pg from "pg";
import type { Trace } from "../scoring/result.js";
import {
  type EvaluationTraces,
  groupByEvaluation,
  THREAD_TRACES_SQL,
  TRACE_TABLE_SQL,
  type TraceOwner,
  type TraceQuery,
  type TraceStore,
  traceOfRow,
  traceRow,
} from "./traceStore.js";

/** Tables created per pool: once each, however many stores share it. */
const created = new WeakMap<pg.Pool, Promise<unknown>>();

export class PostgresTraceStore implements TraceStore {
  readonly kind = "postgres";
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  private ready(): Promise<unknown> {
    let table = created.get(this.pool);
    if (table === undefined) {
      table = this.pool.query(TRACE_TABLE_SQL);
      created.set(this.pool, table);
      table.catch(() => created.delete(this.pool));
    }
    return table;
  }

  async saveTraces(owner: TraceOwner, traces: readonly Trace[]): Promise<void> {
    await this.ready();
    if (traces.length === 0) return;
    const values: unknown[] = [];
    const tuples = traces.map((trace, seq) => {
      const row = traceRow(owner, trace, seq);
      const at = values.length;
      values.push(...row);
      return `(${row.map((_, i) => `$${at + i + 1}`).join(", ")})`;
    });
    await this.pool.query(
      `INSERT INTO evalgate_traces (id, evaluation_id, thread_id, seq, created_at, body)
       VALUES ${tuples.join(", ")} ON CONFLICT (id) DO NOTHING`,
      values,
    );
  }

  async getTraces(query: TraceQuery): Promise<Trace[]> {
    await this.ready();
    const { rows } =
      "evaluationId" in query
        ? await this.pool.query<{ body: string }>(
            "SELECT body FROM evalgate_traces WHERE evaluation_id = $1 ORDER BY seq",
            [query.evaluationId],
          )
        : await this.pool.query<{ body: string }>(
            `SELECT body FROM evalgate_traces WHERE thread_id = $1
             ORDER BY created_at, evaluation_id, seq`,
            [query.threadId],
          );
    return rows.map((row) => traceOfRow(row.body));
  }

  async getThreadEvaluations(threadId: string): Promise<EvaluationTraces[]> {
    await this.ready();
    const { rows } = await this.pool.query<{ evaluation_id: string; body: string }>(
      THREAD_TRACES_SQL.replace("?", "$1"),
      [threadId],
    );
    return groupByEvaluation(rows);
  }
}
