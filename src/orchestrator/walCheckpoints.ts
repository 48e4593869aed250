/**
 * WAL checkpoints of a SQLite database off the event loop. In WAL mode a commit appends pages to
 * the write-ahead log; a checkpoint copies them into the database file and waits for the disk. By
 * default SQLite runs one inside the commit that takes the log past 1,000 pages: one write in a
 * few hundred paid for the copying of all of them (≈ 20 ms here, against ≈ 1 ms for a write), on
 * the event loop, so whatever request was under way waited for it. Here a worker thread with its
 * own connection runs a PASSIVE checkpoint every `everyMs`: it copies what no reader still needs,
 * never waits for a lock, and the commits of the other connections go on meanwhile. The log stays
 * short; the checkpoint connection's automatic threshold is raised to a backstop (a burst the
 * worker falls behind on is still checkpointed inline, as before). Nothing is less durable: a commit is
 * as durable when it is in the log as after it was copied.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the log is checkpointed by default. */
export const DEFAULT_WAL_CHECKPOINT_MS = 200;

/**
 * The log's size, in pages, at which a connection whose log the worker checkpoints still runs a
 * checkpoint inside its own commit: a backstop for when the worker falls behind (SQLite's default
 * is 1,000 pages, which the commits of a busy desk still reached between two rounds).
 */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;

/**
 * Raises the automatic checkpoint threshold of a SQLite connection (better-sqlite3's, as the
 * SQLite checkpoint saver holds it) to the backstop; anything else is left as it is.
 */
export function deferAutoCheckpoint(connection: unknown): void {
  const pragma = (connection as { pragma?: (source: string) => unknown } | null)?.pragma;
  if (typeof pragma === "function") {
    pragma.call(connection, `wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  }
}

/** The worker: plain JavaScript (it is evaluated, not imported), better-sqlite3 passed by path. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma("busy_timeout = 0");
const round = () => {
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch { /* busy or closing: the next round */ }
};
const timer = setInterval(round, workerData.everyMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpoints {
  /** Stops the rounds and closes the worker's connection; safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing the SQLite file at `path` (an existing database in WAL mode) in a worker
 * thread every `everyMs`. The worker does not keep the process alive; stop it before the
 * database is deleted.
 */
export function startWalCheckpoints(
  path: string,
  everyMs: number = DEFAULT_WAL_CHECKPOINT_MS,
): WalCheckpoints {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver, everyMs } });
  worker.unref();
  // A worker that could not start (the file went away) leaves checkpoints to SQLite itself.
  worker.on("error", () => undefined);
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        // Held again until it has closed its connection (the database may be removed next).
        worker.ref();
        worker.postMessage("stop");
        await exited;
      })();
      return stopping;
    },
  };
}
