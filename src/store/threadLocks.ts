/**
 * A thread's lock across processes. SQLite: a row naming the live process that holds it.
 * PostgreSQL: a session advisory lock, dropped with the connection of a replica that dies.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type pg from "pg";
import { z } from "zod";
import { now, type StoreDatabase } from "./database.js";
import { storeUnavailable } from "./databaseFailures.js";

export interface ThreadLease {
  release(): Promise<void>;
  /** Aborted when the lock was lost (PostgreSQL: its connection cut): write nothing more. */
  readonly lost: AbortSignal;
}

const HolderColumns = z.object({ pid: z.union([z.number(), z.bigint()]).transform(Number) });

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

async function lockByProcess(db: StoreDatabase, threadId: string) {
  const owner = randomUUID();
  const taken = await db.transaction(function* (tx) {
    const held = yield* tx.first(sql`SELECT pid FROM thread_locks WHERE thread_id = ${threadId}`);
    if (held !== undefined && processAlive(HolderColumns.parse(held).pid)) return false;
    yield* tx.run(
      sql`INSERT INTO thread_locks (thread_id, owner, pid, acquired_at)
          VALUES (${threadId}, ${owner}, ${process.pid}, ${now()})
          ON CONFLICT (thread_id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid,
            acquired_at = excluded.acquired_at`,
    );
    return true;
  });
  if (!taken) return undefined;
  return {
    // A row of the same file: only this process, dying, gives it up.
    lost: new AbortController().signal,
    release: async () => {
      await db.run(
        sql`DELETE FROM thread_locks WHERE thread_id = ${threadId} AND owner = ${owner}`,
      );
    },
  };
}

/** Returns the connection to the pool (dropped with `error`). */
function giveBack(client: pg.PoolClient, onLost: (error: unknown) => void, error?: unknown): void {
  client.off("error", onLost);
  if (error === undefined) client.release();
  else client.release(error instanceof Error ? error : true);
}

async function lockBySession(pool: pg.Pool, threadId: string): Promise<ThreadLease | undefined> {
  const client = await pool.connect();
  const key = `evalgate-thread:${threadId}`;
  const lost = new AbortController();
  const onLost = (error: unknown) => lost.abort(storeUnavailable(error));
  client.on("error", onLost);
  try {
    const { rows } = await client.query<{ taken: boolean }>(
      "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken",
      [key],
    );
    if (rows[0]?.taken !== true) {
      giveBack(client, onLost);
      return undefined;
    }
  } catch (error) {
    giveBack(client, onLost, error);
    throw error;
  }
  let released = false;
  return {
    lost: lost.signal,
    release: async () => {
      if (released) return;
      released = true;
      try {
        await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]);
        giveBack(client, onLost);
      } catch (error) {
        // A broken connection: drop it, which ends the session and with it the lock.
        giveBack(client, onLost, error);
      }
    },
  };
}

export function tryLockThread(
  db: StoreDatabase,
  threadId: string,
): Promise<ThreadLease | undefined> {
  const native = db.native;
  return native.dialect === "sqlite"
    ? lockByProcess(db, threadId)
    : lockBySession(native.pool, threadId);
}
