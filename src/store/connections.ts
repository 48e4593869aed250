/**
 * The migration runner, and the stores' own connections with their schema brought up to date: a SQLite file in WAL mode with a
 * busy timeout (so a checkpointer's connection and other processes share it), or a pg pool. A
 * database that cannot be opened or migrated is a STORE_OPEN_FAILED StoreError naming it (a URL without its
 * password).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { redactSecretText as redactUrl } from "../redact.js";
import { now, StoreDatabase } from "./database.js";
import { isStoreError, type StoreError, storeOpenFailed } from "./errors.js";
import { MIGRATIONS } from "./migrations.js";

const MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS evalgate_migrations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  );`;

/** The advisory lock PostgreSQL replicas migrating at once queue on (the key never changes). */
const MIGRATION_LOCK = 7_311_042_001;

/**
 * Brings the schema up to date in one transaction: every migration not recorded yet, in order.
 * Processes and replicas starting together wait for each other (SQLite's write lock, PostgreSQL's
 * advisory lock) and the later ones find the work done.
 */
export async function migrate(db: StoreDatabase): Promise<void> {
  await db.transaction(function* (tx) {
    yield* tx.lockUntilCommit(MIGRATION_LOCK);
    yield* tx.script(MIGRATIONS_TABLE);
    const rows = yield* tx.all(sql`SELECT id FROM evalgate_migrations`);
    const applied = new Set(rows.map((row) => Number((row as { id: unknown }).id)));
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.id)) continue;
      const statements = migration.statements(tx.words);
      if (statements !== "") yield* tx.script(statements);
      yield* tx.run(
        sql`INSERT INTO evalgate_migrations (id, name, applied_at) VALUES (${migration.id}, ${migration.name}, ${now()})`,
      );
    }
  });
}

/** A connection to the SQLite file at `path` (made with its folder; ":memory:" for none). */
export function openSqlite(path: string, foreignKeys = true): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    if (foreignKeys) db.pragma("foreign_keys = ON");
    return db;
  } catch (error) {
    if (db?.open) db.close();
    throw openError(path, error);
  }
}

function openError(where: string, error: unknown): StoreError {
  if (isStoreError(error) && error.code === "STORE_OPEN_FAILED") return error;
  const reason = error instanceof Error ? error.message : String(error);
  return storeOpenFailed(where, reason, { cause: error });
}

/** Migrates the database the layer is on; closes it (when owned) and says why when it cannot. */
export async function migrated(db: StoreDatabase, where: string): Promise<StoreDatabase> {
  try {
    await migrate(db);
    return db;
  } catch (error) {
    await db.close().catch(() => undefined);
    throw openError(where, error);
  }
}

/** The SQLite file at `path`, owned by the layer, its schema up to date. */
export async function openMigratedSqlite(path: string, foreignKeys = true) {
  const db = StoreDatabase.on({ dialect: "sqlite", db: openSqlite(path, foreignKeys) }, true);
  return migrated(db, path);
}

/** A pool of `poolSize` on the database at `url`, its schema up to date. */
export async function openMigratedPool(url: string, poolSize: number): Promise<pg.Pool> {
  const pool = surviveConnectionLoss(new pg.Pool({ connectionString: url, max: poolSize }));
  await migrated(StoreDatabase.on({ dialect: "postgres", pool }, true), redactUrl(url));
  return pool;
}

/** The same pool, owned by the layer. */
export async function openMigratedPostgres(url: string, poolSize: number) {
  return StoreDatabase.on(
    { dialect: "postgres", pool: await openMigratedPool(url, poolSize) },
    true,
  );
}

function ignore(): void {
  // The query that was running (if any) fails with the same error; nothing else to do.
}

/**
 * A pg pool that outlives its database server's restarts. pg reports a connection that the server
 * cut (a restart, a shutdown, a crash) as an `error` event: on the pool for an idle connection,
 * and on the connection itself for one checked out; an event nobody listens to ends the process.
 * Every pool evalgate makes (the review store's, the checkpoints') listens to both, so the cut
 * shows only as the failed queries of that moment (STORE_UNAVAILABLE) and the pool connects anew.
 */
export function surviveConnectionLoss(pool: pg.Pool): pg.Pool {
  pool.on("error", ignore);
  pool.on("connect", (client) => {
    client.on("error", ignore);
  });
  return pool;
}
