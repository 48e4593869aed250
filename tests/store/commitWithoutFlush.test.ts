/**
 * A store transaction that lets its commit return before the WAL flush does so for itself only:
 * on PostgreSQL the setting is local to the transaction (the pooled connection goes back as it
 * was), and on SQLite the step changes nothing.
 */
import Database from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreDatabase } from "../../src/store/database.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";

let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  cluster = await startPostgres();
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
}, 40_000);

// Where the connection's setting comes from: the test cluster turns the flush off for speed in
// its configuration, so the value alone cannot show a transaction's own setting; its source can.
const setting = sql`SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'`;

describe("commitWithoutFlush", () => {
  it("on PostgreSQL sets synchronous_commit off for its own transaction only", async () => {
    if (cluster === undefined) throw new Error("no PostgreSQL database was set up");
    // One connection, so the transactions below and the reads after them share it.
    const db = StoreDatabase.on(
      { dialect: "postgres", pool: new pg.Pool({ connectionString: cluster.url, max: 1 }) },
      true,
    );
    try {
      const inside = await db.transaction(function* (tx) {
        yield* tx.commitWithoutFlush();
        return yield* tx.first(setting);
      });
      expect(inside).toMatchObject({ setting: "off", source: "session" });
      const after = await db.first(setting);
      expect(after).not.toMatchObject({ source: "session" });
      const plain = await db.transaction(function* (tx) {
        return yield* tx.first(setting);
      });
      expect(plain).toEqual(after);
    } finally {
      await db.close();
    }
  });

  it("on SQLite changes nothing and the transaction still commits", async () => {
    const native = new Database(":memory:");
    const db = StoreDatabase.on({ dialect: "sqlite", db: native }, true);
    try {
      await db.script("CREATE TABLE notes (text TEXT)");
      const synchronousBefore = native.pragma("synchronous", { simple: true });
      await db.transaction(function* (tx) {
        yield* tx.commitWithoutFlush();
        yield* tx.run(sql`INSERT INTO notes (text) VALUES (${"kept"})`);
      });
      expect(await db.all(sql`SELECT text FROM notes`)).toEqual([{ text: "kept" }]);
      expect(native.pragma("synchronous", { simple: true })).toBe(synchronousBefore);
    } finally {
      await db.close();
    }
  });
});
