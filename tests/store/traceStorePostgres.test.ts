/**
 * The trace store on PostgreSQL: the shared cases (traceStoreCases.ts) on a throwaway cluster,
 * and the migration that makes its tables in the review store's schema.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresReviewStore } from "../../src/store/postgresStore.js";
import { PostgresTraceStore } from "../../src/store/traceStorePostgres.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";
import { type TraceStoreHarness, trace, traceStoreCases } from "./traceStoreCases.js";

let cluster: PostgresCluster | undefined;
let url = "";
let pool: pg.Pool;
let harness: TraceStoreHarness;

/** `?` placeholders as PostgreSQL numbers them. */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

beforeAll(async () => {
  cluster = await startPostgres();
  url = cluster.url;
  // The review store's migrations first, as `evalgate serve` opens the database.
  await (await PostgresReviewStore.open(url)).close();
  pool = new pg.Pool({ connectionString: url, max: 4 });
  harness = {
    store: new PostgresTraceStore(pool),
    query: async (sql, values = []) => (await pool.query(numbered(sql), [...values])).rows,
    other: async () => {
      const second = new pg.Pool({ connectionString: url, max: 4 });
      return { store: new PostgresTraceStore(second), close: () => second.end() };
    },
  };
}, 300_000);

afterAll(async () => {
  await pool?.end();
  await cluster?.stop();
});

describe("the trace store on PostgreSQL", () => {
  traceStoreCases(() => harness);

  it("the migrations made its tables; a store on a pool of its own reads what another wrote", async () => {
    const { rows } = await pool.query(
      "SELECT name FROM evalgate_migrations WHERE name LIKE 'trace store%'",
    );
    expect(rows).toHaveLength(1);
    const evaluationId = randomUUID();
    const sent = [trace(1, { user: "written by one pool" })];
    await harness.store.saveTraces({ evaluationId, threadId: evaluationId }, sent);
    const reader = new pg.Pool({ connectionString: url, max: 1 });
    try {
      expect(await new PostgresTraceStore(reader).getTraces({ threadId: evaluationId })).toEqual(
        sent,
      );
    } finally {
      await reader.end();
    }
  });
});
