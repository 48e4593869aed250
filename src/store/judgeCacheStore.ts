import type Database from "better-sqlite3";
import type pg from "pg";
import type { JudgeCacheEntry, JudgeCacheStore } from "../engine/judgeCache.js";
import { StoreDataError } from "./errors.js";
import { JUDGE_CACHE_TABLE_SQL } from "./migrations.js";
import { openMigratedPool } from "./postgresStore.js";
import { openMigratedSqlite } from "./sqliteStore.js";

/** A judge cache on a database connection of its own; close it when done. */
export interface ClosableJudgeCacheStore extends JudgeCacheStore {
  readonly kind: "sqlite" | "postgres";
  close(): Promise<void>;
}

const UPSERT = `INSERT INTO judge_cache (key, answer, model, purpose, created_at)
  VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (key) DO UPDATE SET answer = excluded.answer, model = excluded.model,
    purpose = excluded.purpose, created_at = excluded.created_at`;

function answerOf(row: unknown): string | undefined {
  if (row === undefined) return undefined;
  const answer = (row as { answer?: unknown }).answer;
  if (typeof answer !== "string") throw new StoreDataError("a judge cache row has no answer text");
  return answer;
}

const entryValues = (e: JudgeCacheEntry) => [e.key, e.answer, e.model, e.purpose, e.createdAt];

export class SqliteJudgeCacheStore implements ClosableJudgeCacheStore {
  readonly kind = "sqlite";
  private readonly select: Database.Statement;
  private readonly upsert: Database.Statement;

  /**
   * The cache on an open connection (a checkpointer's own): its table is created when missing;
   * the connection stays its owner's unless `owned`.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly owned = false,
  ) {
    db.exec(JUDGE_CACHE_TABLE_SQL);
    this.select = db.prepare(
      "SELECT answer FROM judge_cache WHERE key = ? AND (? IS NULL OR created_at >= ?)",
    );
    this.upsert = db.prepare(UPSERT.replace(/\$\d/g, "?"));
  }

  /** The cache in a SQLite file of its own connection, the store's schema brought up to date. */
  static open(path: string): SqliteJudgeCacheStore {
    return new SqliteJudgeCacheStore(openMigratedSqlite(path, false), true);
  }

  async get(key: string, notBefore: string | undefined): Promise<string | undefined> {
    const since = notBefore ?? null;
    return answerOf(this.select.get(key, since, since));
  }

  async put(entry: JudgeCacheEntry): Promise<void> {
    this.upsert.run(...entryValues(entry));
  }

  async close(): Promise<void> {
    if (this.owned && this.db.open) this.db.close();
  }
}

export class PostgresJudgeCacheStore implements ClosableJudgeCacheStore {
  readonly kind = "postgres";
  private ready: Promise<unknown> | undefined;
  private closing: Promise<void> | undefined;

  /**
   * The cache on a pool (a checkpointer's own): its table is created on first use when missing;
   * the pool stays its owner's unless `owned`.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly owned = false,
  ) {}

  /** The cache on a pool of its own, the store's schema brought up to date. */
  static async open(url: string, poolSize = 4): Promise<PostgresJudgeCacheStore> {
    const pool = await openMigratedPool(url, poolSize);
    return new PostgresJudgeCacheStore(pool, true);
  }

  private table(): Promise<unknown> {
    this.ready ??= this.pool.query(JUDGE_CACHE_TABLE_SQL).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async get(key: string, notBefore: string | undefined): Promise<string | undefined> {
    await this.table();
    const { rows } = await this.pool.query(
      "SELECT answer FROM judge_cache WHERE key = $1 AND ($2::text IS NULL OR created_at >= $2)",
      [key, notBefore ?? null],
    );
    return answerOf(rows[0]);
  }

  async put(entry: JudgeCacheEntry): Promise<void> {
    await this.table();
    await this.pool.query(UPSERT, entryValues(entry));
  }

  close(): Promise<void> {
    if (!this.owned) return Promise.resolve();
    this.closing ??= this.pool.end();
    return this.closing;
  }
}
