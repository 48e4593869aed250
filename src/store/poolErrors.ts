/**
 * A pg pool that outlives its database server's restarts. pg reports a connection that the server
 * cut (a restart, a shutdown, a crash) as an `error` event: on the pool for an idle connection,
 * and on the connection itself for one checked out; an event nobody listens to ends the process.
 * Every pool evalgate makes (the review store's, the checkpoints') listens to both, so the cut
 * shows only as the failed queries of that moment (STORE_UNAVAILABLE) and the pool connects anew.
 */
import type pg from "pg";

function ignore(): void {
  // The query that was running (if any) fails with the same error; nothing else to do.
}

/** Listens for the pool's errors and every one of its connections', for as long as they live. */
export function surviveConnectionLoss(pool: pg.Pool): pg.Pool {
  pool.on("error", ignore);
  pool.on("connect", (client) => {
    client.on("error", ignore);
  });
  return pool;
}
