/**
 * A throwaway PostgreSQL for a test file: EVALGATE_TEST_DATABASE_URL when set, else a cluster
 * started with .ci/postgres.sh (which installs PostgreSQL on a fresh machine) and stopped after.
 * When none can be had the test fails saying how to get one; it never skips.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL("../../.ci/postgres.sh", import.meta.url));

function postgresInstalled(): boolean {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return false;
  return readdirSync(root).some((version) => existsSync(join(root, version, "bin", "initdb")));
}

function field(output: string, name: string): string {
  const line = output.split("\n").find((l) => l.startsWith(`${name}=`));
  if (line === undefined) throw new Error(`.ci/postgres.sh printed no ${name}=: ${output}`);
  return line.slice(name.length + 1);
}

export interface PostgresCluster {
  url: string;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const external = process.env.EVALGATE_TEST_DATABASE_URL?.trim();
  if (external !== undefined && external !== "")
    return { url: external, stop: async () => undefined };
  const installed = postgresInstalled();
  try {
    const args = installed ? [SCRIPT, "start", "--no-install"] : [SCRIPT, "start"];
    const { stdout } = await run("bash", args, { timeout: installed ? 30_000 : 280_000 });
    const dir = field(stdout, "EVALGATE_PG_DIR");
    return {
      url: field(stdout, "DATABASE_URL"),
      stop: async () => {
        await run("bash", [SCRIPT, "stop", dir], { timeout: 30_000 });
      },
    };
  } catch (error) {
    throw new Error(
      `PostgreSQL could not be installed or started: run .ci/postgres.sh and set EVALGATE_TEST_DATABASE_URL to the DATABASE_URL it prints (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}
