/** The judge cache on a checkpointer's connection (table made on first use) or its own. */
import type Database from "better-sqlite3";
import { sql } from "kysely";
import type pg from "pg";
import type { JudgeCacheEntry, JudgeCacheStore } from "../engine/judgeCache.js";
import { migrated, openMigratedPool, openSqlite } from "./connections.js";
import { StoreDatabase } from "./database.js";
import { storeDataInvalid } from "./errors.js";
import { JUDGE_CACHE_TABLE_SQL } from "./migrations.js";

export interface ClosableJudgeCacheStore extends JudgeCacheStore {
  readonly kind: "sqlite" | "postgres";
  close(): Promise<void>;
}

type Preparation = (db: StoreDatabase) => Promise<unknown>;

const createTable: Preparation = (db) => db.script(JUDGE_CACHE_TABLE_SQL);

function answerOf(row: unknown): string | undefined {
  if (row === undefined) return undefined;
  const answer = (row as { answer?: unknown }).answer;
  if (typeof answer !== "string") throw storeDataInvalid("a judge cache row has no answer text");
  return answer;
}

export class SqlJudgeCacheStore implements ClosableJudgeCacheStore {
  private ready: Promise<unknown> | undefined;

  protected constructor(
    private readonly db: StoreDatabase,
    private readonly prepare: Preparation,
  ) {}

  get kind(): "sqlite" | "postgres" {
    return this.db.dialect;
  }

  private table(): Promise<unknown> {
    this.ready ??= this.prepare(this.db).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async get(key: string, notBefore: string | undefined): Promise<string | undefined> {
    await this.table();
    const fresh = notBefore === undefined ? sql`` : sql` AND created_at >= ${notBefore}`;
    return answerOf(
      await this.db.first(sql`SELECT answer FROM judge_cache WHERE key = ${key}${fresh}`),
    );
  }

  async put(e: JudgeCacheEntry): Promise<void> {
    await this.table();
    await this.db.run(
      sql`INSERT INTO judge_cache (key, answer, model, purpose, created_at)
          VALUES (${e.key}, ${e.answer}, ${e.model}, ${e.purpose}, ${e.createdAt})
          ON CONFLICT (key) DO UPDATE SET answer = excluded.answer, model = excluded.model,
            purpose = excluded.purpose, created_at = excluded.created_at`,
    );
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

export class SqliteJudgeCacheStore extends SqlJudgeCacheStore {
  /** On a checkpointer's open connection; closed with it only when `owned`. */
  constructor(db: Database.Database, owned = false, prepare: Preparation = createTable) {
    super(StoreDatabase.on({ dialect: "sqlite", db }, owned), prepare);
  }

  /** In a SQLite file of its own, migrated on first use. */
  static open(path: string): SqliteJudgeCacheStore {
    return new SqliteJudgeCacheStore(openSqlite(path, false), true, (db) => migrated(db, path));
  }
}

export class PostgresJudgeCacheStore extends SqlJudgeCacheStore {
  /** On a checkpointer's pool; ended with it only when `owned`. */
  constructor(pool: pg.Pool, owned = false, prepare: Preparation = createTable) {
    super(StoreDatabase.on({ dialect: "postgres", pool }, owned), prepare);
  }

  static async open(url: string, poolSize = 4): Promise<PostgresJudgeCacheStore> {
    const pool = await openMigratedPool(url, poolSize);
    return new PostgresJudgeCacheStore(pool, true, async () => undefined);
  }
}
