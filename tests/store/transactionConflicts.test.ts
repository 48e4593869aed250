/**
 * A deadlock PostgreSQL breaks up never reaches the store's caller: two transactions that lock two
 * rows in opposite orders (a pause between, so they always cross) both commit, one of them after
 * running its body again. A database that cannot be reached is a STORE_UNAVAILABLE StoreError.
 */

import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { StoreDatabase } from "../../src/store/database.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";

describe("transactions PostgreSQL breaks up", () => {
  let cluster: PostgresCluster;
  let db: StoreDatabase;

  beforeAll(async () => {
    cluster = await startPostgres();
    db = StoreDatabase.on(
      { dialect: "postgres", pool: new pg.Pool({ connectionString: cluster.url }) },
      true,
    );
    await db.script("CREATE TABLE crossing (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
    await db.script("INSERT INTO crossing VALUES (1, 0), (2, 0)");
  }, 300_000);

  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
  }, 60_000);

  it("runs a transaction broken up by a deadlock again, and both commit", async () => {
    let bodies = 0;
    const crossing = (first: number, second: number) =>
      db.transaction(function* (tx) {
        bodies++;
        yield* tx.run(sql`UPDATE crossing SET n = n + 1 WHERE id = ${first}`);
        yield* tx.all(sql`SELECT pg_sleep(0.3)`);
        yield* tx.run(sql`UPDATE crossing SET n = n + 1 WHERE id = ${second}`);
        return first;
      });
    const done = await Promise.all([crossing(1, 2), crossing(2, 1)]);
    expect(done).toEqual([1, 2]);
    // Two bodies committed, and at least one ran again after PostgreSQL chose it as the victim.
    expect(bodies).toBeGreaterThanOrEqual(3);
    const rows = await db.all(sql`SELECT id, n FROM crossing ORDER BY id`);
    expect(rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  }, 60_000);

  it("says STORE_UNAVAILABLE when the server cannot be reached", async () => {
    const url = new URL(cluster.url);
    url.port = "1";
    const gone = StoreDatabase.on(
      { dialect: "postgres", pool: new pg.Pool({ connectionString: url.toString() }) },
      true,
    );
    try {
      const failure = await gone.all(sql`SELECT 1`).catch((error: unknown) => error);
      expect(isEvalgateError(failure, "STORE_UNAVAILABLE")).toBe(true);
      expect((failure as Error).message).not.toContain("127.0.0.1");
    } finally {
      await gone.close();
    }
  });
});
