/** The trace store on PostgreSQL, on a pool that is open already (the checkpoints' database). */
import type pg from "pg";
import type { Trace } from "../scoring/result.js";
import { TRACE_TABLES_SQL } from "./migrations.js";
import {
  BLOBS_PER_READ,
  CALL_ROWS_SQL,
  EVALUATION_ROWS_SQL,
  type EvaluationTraces,
  queryKey,
  readEvaluations,
  type StoredRow,
  type TraceOwner,
  type TraceQuery,
  type TraceRowReader,
  type TraceStore,
  traceWrites,
} from "./traceStore.js";

/** Tables created per pool: once each, however many stores share it. */
const created = new WeakMap<pg.Pool, Promise<unknown>>();
/** Whether the pool's database has the per-call table of earlier versions (asked once). */
const callTables = new WeakMap<pg.Pool, Promise<boolean>>();

/** At most this many blobs go into one INSERT (PostgreSQL takes 65,535 parameters). */
const BLOBS_PER_INSERT = 1_000;

/** `($1, $2), ($3, $4), …` for the pairs, and their values in order. */
function pairs(rows: readonly (readonly [string, string])[]) {
  const values = rows.flat();
  const text = rows.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(", ");
  return { text, values };
}

export class PostgresTraceStore implements TraceStore {
  readonly kind = "postgres";
  private readonly pool: pg.Pool;
  private readonly reader: TraceRowReader;

  constructor(pool: pg.Pool) {
    this.pool = pool;
    this.reader = {
      evaluationRows: (query) => this.rows(EVALUATION_ROWS_SQL, query),
      callRows: async (query) =>
        (await this.hasCallTable()) ? this.rows(CALL_ROWS_SQL, query) : [],
      blobs: (hashes) => this.readBlobs(hashes),
    };
  }

  private ready(): Promise<unknown> {
    let table = created.get(this.pool);
    if (table === undefined) {
      table = this.pool.query(TRACE_TABLES_SQL.postgres);
      created.set(this.pool, table);
      table.catch(() => created.delete(this.pool));
    }
    return table;
  }

  /**
   * In one transaction: the blobs first (in hash order, so two saves sharing blobs never wait on
   * each other in a cycle), then the evaluation's row that refers to them.
   */
  async saveTraces(owner: TraceOwner, traces: readonly Trace[]): Promise<void> {
    await this.ready();
    const writes = traceWrites(owner, traces);
    if (writes === undefined) return;
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      for (let at = 0; at < writes.blobs.length; at += BLOBS_PER_INSERT) {
        const some = pairs(writes.blobs.slice(at, at + BLOBS_PER_INSERT));
        await client.query(
          `INSERT INTO evalgate_trace_blobs (hash, text) VALUES ${some.text}
           ON CONFLICT (hash) DO NOTHING`,
          some.values,
        );
      }
      await client.query(
        `INSERT INTO evalgate_evaluation_traces (evaluation_id, thread_id, created_at, body)
         VALUES ($1, $2, $3, $4) ON CONFLICT (evaluation_id) DO NOTHING`,
        [...writes.row],
      );
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async rows(sql: (column: string) => string, query: TraceQuery): Promise<StoredRow[]> {
    await this.ready();
    const { column, value } = queryKey(query);
    const { rows } = await this.pool.query<StoredRow>(sql(column).replace("?", "$1"), [value]);
    return rows;
  }

  /** Whether the database has the per-call table of earlier versions. */
  private hasCallTable(): Promise<boolean> {
    let known = callTables.get(this.pool);
    if (known === undefined) {
      known = this.pool
        .query<{ found: string | null }>("SELECT to_regclass('evalgate_traces')::text AS found")
        .then(({ rows }) => typeof rows[0]?.found === "string");
      callTables.set(this.pool, known);
      known.catch(() => callTables.delete(this.pool));
    }
    return known;
  }

  private async readBlobs(hashes: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let at = 0; at < hashes.length; at += BLOBS_PER_READ) {
      const { rows } = await this.pool.query<{ hash: string; text: string }>(
        "SELECT hash, text FROM evalgate_trace_blobs WHERE hash = ANY($1::text[])",
        [hashes.slice(at, at + BLOBS_PER_READ)],
      );
      for (const row of rows) found.set(row.hash, row.text);
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
