/**
 * The store conformance suite (storeConformance.ts) on SQLite, in a real file, and on a throwaway
 * PostgreSQL cluster.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { openJudgeCacheStore } from "../../src/store/index.js";
import { openRegistryStore } from "../../src/store/registryStore.js";
import { PostgresReviewStore, SqliteReviewStore } from "../../src/store/reviewStore.js";
import { PostgresTraceStore, SqliteTraceStore } from "../../src/store/traceStore.js";
import { startPostgres } from "../service-core/postgresCluster.js";
import {
  type DatabaseUnderTest,
  describeStoreConformance,
  type FreshDatabase,
} from "./storeConformance.js";

/** `?` placeholders as PostgreSQL numbers them. */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

function sqliteConnection(path: string) {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 10000");
  return db;
}

function sqliteQuery(db: Database.Database) {
  return async (text: string, values: readonly unknown[] = []) => {
    const statement = db.prepare(text);
    if (statement.reader) return statement.all(...values) as Record<string, unknown>[];
    statement.run(...values);
    return [];
  };
}

async function onSqlite(): Promise<DatabaseUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), "evalgate-conformance-"));
  const path = join(dir, "store.sqlite");
  let files = 0;
  return {
    dialect: "sqlite",
    reviewStore: () => SqliteReviewStore.open(path),
    registryStore: () => openRegistryStore({ sqlitePath: path, env: {} }),
    judgeCache: () => openJudgeCacheStore({ sqlitePath: path, env: {} }),
    traces: async () => {
      const db = sqliteConnection(path);
      return {
        store: new SqliteTraceStore(db),
        query: sqliteQuery(db),
        other: async () => {
          const second = sqliteConnection(path);
          return { store: new SqliteTraceStore(second), close: async () => void second.close() };
        },
        close: async () => void db.close(),
      };
    },
    fresh: async (): Promise<FreshDatabase> => {
      const freshPath = join(dir, `fresh-${++files}.sqlite`);
      const db = sqliteConnection(freshPath);
      return {
        query: sqliteQuery(db),
        script: async (text) => void db.exec(text),
        reviewStore: () => SqliteReviewStore.open(freshPath),
        close: async () => void db.close(),
      };
    },
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function pgQuery(pool: pg.Pool) {
  return async (text: string, values: readonly unknown[] = []) =>
    (await pool.query(numbered(text), [...values])).rows as Record<string, unknown>[];
}

async function onPostgres(): Promise<DatabaseUnderTest> {
  const cluster = await startPostgres();
  const url = cluster.url;
  // The review store's migrations first, as `evalgate serve` opens the database.
  await (await PostgresReviewStore.open(url, 1)).close();
  let databases = 0;
  return {
    dialect: "postgres",
    reviewStore: () => PostgresReviewStore.open(url, 2),
    registryStore: () => openRegistryStore({ databaseUrl: url }),
    judgeCache: () => openJudgeCacheStore({ databaseUrl: url }),
    traces: async () => {
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      return {
        store: new PostgresTraceStore(pool),
        query: pgQuery(pool),
        other: async () => {
          const second = new pg.Pool({ connectionString: url, max: 4 });
          return { store: new PostgresTraceStore(second), close: () => second.end() };
        },
        close: () => pool.end(),
      };
    },
    fresh: async (): Promise<FreshDatabase> => {
      const name = `fresh_${process.pid}_${++databases}`;
      const admin = new pg.Pool({ connectionString: url, max: 1 });
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const address = new URL(url);
      address.pathname = `/${name}`;
      const freshUrl = address.toString();
      const pool = new pg.Pool({ connectionString: freshUrl, max: 2 });
      return {
        query: pgQuery(pool),
        script: async (text) => void (await pool.query(text)),
        reviewStore: () => PostgresReviewStore.open(freshUrl, 2),
        close: () => pool.end(),
      };
    },
    close: () => cluster.stop(),
  };
}

describeStoreConformance("SQLite", onSqlite);
describeStoreConformance("PostgreSQL", onPostgres);
