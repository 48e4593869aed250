/**
 * WAL checkpoints of a SQLite database off the event loop. SQLite runs one inside the commit that
 * takes the log past 1,000 pages (≈ 20 ms on the event loop); here a worker thread with its own
 * connection runs a PASSIVE checkpoint every `everyMs`, and the connections' own threshold is raised
 * to a backstop. Nothing is less durable: a commit is as durable in the log as after it is copied.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

const DEFAULT_WAL_CHECKPOINT_MS = 200;

/** The log size (pages) at which a connection still checkpoints in its commit: a backstop. */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;

/** Raises a better-sqlite3 connection's automatic checkpoint threshold to the backstop. */
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

/** Checkpoints the SQLite file at `path` in a worker thread every `everyMs`; stop it before deleting. */
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
