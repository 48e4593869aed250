/**
 * The judge-call cache of an evaluation node: by default the checkpointer's own database (its
 * SQLite file or PostgreSQL pool), so every usable answer is on file as soon as it is known and a
 * run killed in the middle of an evaluation is resumed with only the criteria still to judge. A
 * graph with an in-memory checkpointer, or none, has no cache unless one is given.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type Database from "better-sqlite3";
import type pg from "pg";
import type { JudgeCacheSetting, JudgeCacheStore } from "../engine/judgeCache.js";
import { PostgresJudgeCacheStore, SqliteJudgeCacheStore } from "../store/judgeCacheStore.js";

const CHECKPOINTER_KEY = "__pregel_checkpointer";
const stores = new WeakMap<object, JudgeCacheStore | null>();

function hasMethod(value: unknown, method: string): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>)[method] === "function"
  );
}

/** A judge cache on the saver's database (SQLite `db` or PostgreSQL `pool`), when it has one. */
export function judgeCacheStoreOfSaver(saver: unknown): JudgeCacheStore | undefined {
  if (typeof saver !== "object" || saver === null) return undefined;
  const known = stores.get(saver);
  if (known !== undefined) return known ?? undefined;
  const { db, pool } = saver as { db?: unknown; pool?: unknown };
  let store: JudgeCacheStore | null = null;
  if (hasMethod(db, "prepare") && hasMethod(db, "exec")) {
    store = new SqliteJudgeCacheStore(db as Database.Database);
  } else if (hasMethod(pool, "query") && hasMethod(pool, "connect")) {
    store = new PostgresJudgeCacheStore(pool as pg.Pool);
  }
  stores.set(saver, store);
  return store ?? undefined;
}

/**
 * The cache an evaluation node uses under this run: `false` turns it off; a setting with a store
 * uses that store; otherwise (with the setting's TTL) the checkpointer's database, when the run
 * has one.
 */
export function judgeCacheFor(
  setting: JudgeCacheSetting | undefined,
  config: LangGraphRunnableConfig | undefined,
): JudgeCacheSetting {
  if (setting === false) return false;
  if (setting?.store !== undefined) return setting;
  const store = judgeCacheStoreOfSaver(config?.configurable?.[CHECKPOINTER_KEY]);
  return store === undefined ? false : { ...setting, store };
}
