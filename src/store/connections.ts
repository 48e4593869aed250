/** The migration runner, and the stores' own connections, migrated (else STORE_OPEN_FAILED). */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { redactSecretText } from "../redact.js";
import { now, StoreDatabase } from "./database.js";
import { isStoreError, type StoreError, storeOpenFailed } from "./errors.js";
import { MIGRATIONS } from "./migrations.js";

const MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS evalgate_migrations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  );`;

const MIGRATION_LOCK = 7_311_042_001;

/** Every migration not recorded yet, in one transaction; concurrent starts queue on a lock. */
async function migrate(db: StoreDatabase): Promise<void> {
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

export async function migrated(db: StoreDatabase, where: string): Promise<StoreDatabase> {
  try {
    await migrate(db);
    return db;
  } catch (error) {
    await db.close().catch(() => undefined);
    throw openError(where, error);
  }
}

export async function openMigratedSqlite(path: string, foreignKeys = true) {
  const db = StoreDatabase.on({ dialect: "sqlite", db: openSqlite(path, foreignKeys) }, true);
  return migrated(db, path);
}

export async function openMigratedPool(url: string, poolSize: number): Promise<pg.Pool> {
  const pool = surviveConnectionLoss(new pg.Pool({ connectionString: url, max: poolSize }));
  await migrated(StoreDatabase.on({ dialect: "postgres", pool }, true), redactSecretText(url));
  return pool;
}

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
 * pg reports a connection the server cut as an `error` event (on the pool or the checked-out
 * client), and an event nobody listens to ends the process: every pool listens to both.
 */
export function surviveConnectionLoss(pool: pg.Pool): pg.Pool {
  pool.on("error", ignore);
  pool.on("connect", (client) => {
    client.on("error", ignore);
  });
  return pool;
}
