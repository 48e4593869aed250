/**
 * Restarts of a test's own PostgreSQL cluster (postgresCluster.ts) under running replicas: a fast
 * restart (`pg_ctl restart -m fast`: sessions cut, a clean shutdown) and a crash (the postmaster
 * killed with SIGKILL, then started again, which recovers from the WAL).
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { asAccount } from "./postgresBinaries.js";
import { machinePostgres, type RunningCluster, startCluster } from "./postgresCluster.js";

const run = promisify(execFile);

/** A cluster of this test's own (never EVALGATE_TEST_DATABASE_URL's: it is restarted). */
export async function startOwnCluster(): Promise<RunningCluster> {
  const { binaries, account } = await machinePostgres(process.env);
  return startCluster(binaries, account);
}

function pgCtl(cluster: RunningCluster, args: string[]) {
  return run(join(cluster.binaries.bin, "pg_ctl"), ["-D", join(cluster.dir, "data"), ...args], {
    ...asAccount(cluster.account, cluster.dir),
    timeout: 120_000,
  });
}

/** `pg_ctl restart -m fast`: every session is cut, the server is back when it resolves. */
export async function restartFast(cluster: RunningCluster): Promise<void> {
  await pgCtl(cluster, ["-w", "-t", "60", "-m", "fast", "restart"]);
}

function portOf(cluster: RunningCluster): string {
  return new URL(cluster.url).port;
}

async function postmasterPid(cluster: RunningCluster): Promise<number> {
  const text = await readFile(join(cluster.dir, "data", "postmaster.pid"), "utf8");
  return Number(text.split("\n")[0]?.trim());
}

/**
 * The postmaster killed with SIGKILL, then started again once its children have gone (a start
 * fails while one still holds the shared memory; it is tried again, a bounded number of times).
 * `downMs` is how long the server stays down before the first start.
 */
export async function crashAndStart(cluster: RunningCluster, downMs = 1000): Promise<void> {
  process.kill(await postmasterPid(cluster), "SIGKILL");
  await new Promise((resolve) => setTimeout(resolve, downMs));
  const failures: string[] = [];
  for (let attempt = 0; attempt < 30; attempt++) {
    try {
      const log = join(cluster.dir, "server.log");
      await pgCtl(cluster, ["-w", "-t", "60", "-l", log, "-o", `-p ${portOf(cluster)}`, "start"]);
      return;
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error(`the server did not start again: ${failures.slice(-3).join("; ")}`);
}
