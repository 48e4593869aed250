/**
 * `.ci/postgres.sh start [--no-install]` and `.ci/postgres.sh stop <EVALGATE_PG_DIR>` (run with
 * tsx): the tests' throwaway cluster for humans and CI. start prints
 *     DATABASE_URL=postgres://postgres@127.0.0.1:<port>/evalgate
 *     EVALGATE_PG_DIR=<the temp folder>
 * on stdout (progress on stderr); the cluster runs until stop. --no-install: never apt-get.
 */
import { machinePostgres, startCluster, stopCluster } from "./postgresCluster.js";

const USAGE = "usage: .ci/postgres.sh [start] [--no-install] | stop <EVALGATE_PG_DIR> | install";

async function start(options: string[]): Promise<void> {
  const unknown = options.filter((option) => option !== "--no-install");
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(" ")}; ${USAGE}`);
  const { binaries, account } = await machinePostgres(process.env, {
    allowInstall: !options.includes("--no-install"),
  });
  const owner = account === undefined ? "" : `, as ${account.name}`;
  process.stderr.write(
    `postgres: ${binaries.version} from ${binaries.bin} (${binaries.source}${owner})\n`,
  );
  const cluster = await startCluster(binaries, account);
  process.stderr.write(`postgres: running; stop it with .ci/postgres.sh stop ${cluster.dir}\n`);
  process.stdout.write(`DATABASE_URL=${cluster.url}\nEVALGATE_PG_DIR=${cluster.dir}\n`);
}

async function main(args: string[]): Promise<void> {
  const [command = "start", ...rest] = args;
  if (command === "start") return start(rest);
  if (command === "--no-install") return start(args);
  if (command === "stop" && rest.length === 1 && rest[0] !== undefined) return stopCluster(rest[0]);
  throw new Error(USAGE);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`postgres: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
