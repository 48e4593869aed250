/**
 * Where bench/state.ts measures: a SQLite file in a temp folder, or a database of its own on
 * PostgreSQL — a server given by URL, or a throwaway cluster started as the tests start theirs
 * (tests/service-core/postgresCluster.ts), set back to durable commits (fsync, synchronous
 * commit and full-page writes on, as a production server has them) before anything is measured.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type PostgresCluster, startPostgres } from "../tests/service-core/postgresCluster.js";
import { type DatabaseSize, postgresSize, sqliteSize } from "./stateSizes.js";

export type BenchWhere = { sqlitePath: string } | { databaseUrl: string };

/** One fresh database: where it is, and its size by part. */
export interface FreshDatabase {
  where: BenchWhere;
  /** `compact` (PostgreSQL): after VACUUM FULL, the live rows only. */
  size(compact?: boolean): Promise<DatabaseSize>;
}

export interface BenchDatabases {
  readonly kind: "sqlite" | "postgres";
  /** What the figures say the database is (the server's version, its durability). */
  readonly description: string;
  fresh(name: string): Promise<FreshDatabase>;
  /**
   * While the bench copies threads (not measured): commits that do not wait for the disk, on a
   * throwaway cluster (`synchronous_commit = off`, set back before anything is measured).
   */
  whileSeeding<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function sqliteDatabases(): BenchDatabases {
  const work = mkdtempSync(join(tmpdir(), "evalgate-bench-state-"));
  return {
    kind: "sqlite",
    description: "SQLite (WAL; checkpoints with synchronous = NORMAL, review store FULL)",
    fresh: async (name) => {
      const sqlitePath = join(work, `${name}.sqlite`);
      return { where: { sqlitePath }, size: async () => sqliteSize(sqlitePath) };
    },
    whileSeeding: (seed) => seed(),
    close: async () => rmSync(work, { recursive: true, force: true }),
  };
}

/** The URL with another database name. */
function onDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer<T>(url: string, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

/** PostgreSQL at `url`, or a throwaway cluster when none is given. */
export async function postgresDatabases(url?: string): Promise<BenchDatabases> {
  let cluster: PostgresCluster | undefined;
  if (url === undefined) {
    cluster = await startPostgres();
    await onServer(cluster.url, async (pool) => {
      for (const setting of ["fsync = on", "synchronous_commit = on", "full_page_writes = on"]) {
        await pool.query(`ALTER SYSTEM SET ${setting}`);
      }
      await pool.query("SELECT pg_reload_conf()");
    });
  }
  const base = url ?? cluster?.url ?? "";
  const version = await onServer(base, async (pool) => {
    const { rows } = await pool.query<{ v: string; f: string; s: string }>(
      "SELECT current_setting('server_version') AS v, current_setting('fsync') AS f, current_setting('synchronous_commit') AS s",
    );
    const row = rows[0];
    return `PostgreSQL ${row?.v} (fsync ${row?.f}, synchronous_commit ${row?.s})`;
  });
  const made: string[] = [];
  const synchronousCommit = (setting: "on" | "off") =>
    onServer(base, async (pool) => {
      await pool.query(`ALTER SYSTEM SET synchronous_commit = ${setting}`);
      await pool.query("SELECT pg_reload_conf()");
    });
  return {
    kind: "postgres",
    description: cluster === undefined ? version : `${version}, a throwaway local cluster`,
    fresh: async (name) => {
      const database = `evalgate_bench_${name.replace(/[^a-z0-9_]/g, "_")}_${Date.now()}`;
      await onServer(base, (pool) => pool.query(`CREATE DATABASE ${database}`));
      made.push(database);
      const databaseUrl = onDatabase(base, database);
      return { where: { databaseUrl }, size: (compact) => postgresSize(databaseUrl, compact) };
    },
    whileSeeding: async (seed) => {
      if (cluster === undefined) return seed();
      await synchronousCommit("off");
      try {
        return await seed();
      } finally {
        await synchronousCommit("on");
      }
    },
    close: async () => {
      if (cluster !== undefined) await cluster.stop();
      else {
        await onServer(base, async (pool) => {
          for (const database of made) await pool.query(`DROP DATABASE IF EXISTS ${database}`);
        });
      }
    },
  };
}
