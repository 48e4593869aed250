/**
 * Sizes for bench/state.ts: what a database holds, table by table, gathered into what a paused
 * thread costs — its checkpoint state, its traces, the judge cache, the review store and its
 * pending-review index — on SQLite (pages, read from dbstat once the write-ahead log is folded
 * into the file) and on PostgreSQL (each table's size with its indexes and TOAST); and a bigger
 * catalog for the 20-criterion figure.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

/** What a paused thread's bytes are for. */
export const SIZE_PARTS = ["checkpoint state", "traces", "judge cache", "review store"] as const;
export type SizePart = (typeof SIZE_PARTS)[number];

/** Bytes by part, and the whole file (SQLite) or database (PostgreSQL). */
export interface DatabaseSize {
  parts: Record<SizePart, number>;
  /** SQLite: the bytes of the rows themselves, by part (the rest is page space and b-tree). */
  payload?: Record<SizePart, number>;
  total: number;
}

/** The part a table (and its indexes) belongs to. */
function partOf(table: string): SizePart {
  if (/^(checkpoints|writes|checkpoint_blobs|checkpoint_writes|checkpoint_migrations)$/.test(table))
    return "checkpoint state";
  if (table.startsWith("evalgate_") && table.includes("trace")) return "traces";
  if (table === "judge_cache") return "judge cache";
  return "review store";
}

function emptyParts(): Record<SizePart, number> {
  return { "checkpoint state": 0, traces: 0, "judge cache": 0, "review store": 0 };
}

/** The SQLite file's pages by part, after its write-ahead log is folded into it. */
export function sqliteSize(path: string): DatabaseSize {
  const db = new Database(path);
  try {
    db.pragma("busy_timeout = 10000");
    db.pragma("wal_checkpoint(TRUNCATE)");
    const rows = db
      .prepare(
        `SELECT coalesce(m.tbl_name, s.name) AS tbl, SUM(s.pgsize) AS bytes,
           SUM(s.payload) AS payload
         FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY tbl`,
      )
      .all() as { tbl: string; bytes: number; payload: number }[];
    const parts = emptyParts();
    const payload = emptyParts();
    for (const row of rows) {
      parts[partOf(row.tbl)] += row.bytes;
      payload[partOf(row.tbl)] += row.payload;
    }
    return { parts, payload, total: statSync(path).size };
  } finally {
    db.close();
  }
}

/**
 * The PostgreSQL database's tables (with indexes and TOAST) by part, in every schema of ours. With
 * `compact`, VACUUM FULL first: the rows a thread deleted (its superseded writes) are gone, as
 * autovacuum leaves their room to new rows in a database that keeps running.
 */
export async function postgresSize(url: string, compact = false): Promise<DatabaseSize> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    if (compact) await pool.query("VACUUM FULL");
    const { rows } = await pool.query<{ relname: string; bytes: string }>(
      `SELECT c.relname, pg_total_relation_size(c.oid)::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')`,
    );
    const parts = emptyParts();
    for (const row of rows) parts[partOf(row.relname)] += Number(row.bytes);
    const { rows: database } = await pool.query<{ bytes: string }>(
      "SELECT pg_database_size(current_database())::text AS bytes",
    );
    return { parts, total: Number(database[0]?.bytes ?? 0) };
  } finally {
    await pool.end();
  }
}

/** Bytes per thread between two measures `threads` threads apart. */
export function perThread(
  before: DatabaseSize,
  after: DatabaseSize,
  threads: number,
): DatabaseSize {
  const slope = (a: Record<SizePart, number>, b: Record<SizePart, number>) => {
    const parts = emptyParts();
    for (const part of SIZE_PARTS) parts[part] = (b[part] - a[part]) / threads;
    return parts;
  };
  return {
    parts: slope(before.parts, after.parts),
    ...(before.payload && after.payload ? { payload: slope(before.payload, after.payload) } : {}),
    total: (after.total - before.total) / threads,
  };
}

/** A folder with a research catalog of `count` criteria: the shipped ones, repeated. */
export function catalogDir(work: string, count: number): string {
  const shipped = JSON.parse(readFileSync("config/evaluation/criteria/research.json", "utf8")) as {
    criteria: Array<Record<string, unknown>>;
  };
  const criteria = Array.from({ length: count }, (_, i) => {
    const base = shipped.criteria[i % shipped.criteria.length] ?? {};
    return { ...base, id: `${String(base.id)}_${i}`, weight: 1 / count };
  });
  const dir = join(work, `criteria-${count}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "research.json"), JSON.stringify({ ...shipped, criteria }, null, 2));
  return dir;
}
