/**
 * `evalgate serve`: the model checked, the desk opened with its jobs, the service served until
 * cancelled.
 */
import { join } from "node:path";
import { startService } from "../../service/server.js";
import type { CliContext } from "../context.js";
import { CliError, refuseUrlAsFile } from "../errors.js";
import { resolveModelTarget } from "../modelCheck.js";
import type { PanelFlags } from "../panelJudges.js";
import { panelSettingOf, readyRunModels } from "../panelJudges.js";
import { openCliDesk } from "../review/deskPath.js";
import {
  type CheckpointStore,
  describeStore,
  type StoreFlags,
  storeOfFlags,
} from "../review/store.js";

export interface RawServeOptions extends PanelFlags, StoreFlags {
  host: string;
  port: number;
  /** Deprecated: `--db <folder>/checkpoints.sqlite`. */
  data?: string;
  model?: string;
  timeout?: number;
}

function untilStopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** The store: --db / --database-url, or the deprecated --data folder (with a notice). */
function serveStore(options: RawServeOptions, context: CliContext): CheckpointStore {
  const data = options.data?.trim();
  if (data === undefined || data === "") return storeOfFlags(options, context.env, context.cwd);
  if (options.db !== undefined || options.databaseUrl !== undefined) {
    throw new CliError("--data is the old name of --db <folder>/checkpoints.sqlite: give one");
  }
  refuseUrlAsFile(data, { name: "--data", takes: "a folder" });
  const db = join(data, "checkpoints.sqlite");
  context.stderr.write(`evalgate: --data is deprecated: use --db ${db}\n`);
  return storeOfFlags({ db }, context.env, context.cwd);
}

/** Why the server could not listen, by the listen error's code, in the command's words. */
const LISTEN_PROBLEMS: Readonly<Record<string, (options: RawServeOptions) => string>> = {
  EADDRINUSE: ({ host, port }) => `port ${port} is in use on ${host}; choose another with --port`,
  EACCES: ({ port }) =>
    `port ${port} needs privileges this user lacks (ports below 1024 do); choose another with --port`,
  EADDRNOTAVAIL: ({ host, port }) =>
    `cannot listen on ${host}:${port}: ${host} is not an address of this machine; choose another with --host`,
};

/** Why the server could not listen (undefined: not a listen error). */
function listenError(error: unknown, options: RawServeOptions): CliError | undefined {
  const code = String((error as { code?: unknown } | null)?.code);
  const problem = LISTEN_PROBLEMS[code === "ENOTFOUND" ? "EADDRNOTAVAIL" : code];
  return problem === undefined ? undefined : new CliError(problem(options), { cause: error });
}

/** Serves until `stop` is aborted, then shuts down gracefully. */
export async function serveReviews(
  options: RawServeOptions,
  context: CliContext,
  stop: AbortSignal,
): Promise<void> {
  const store = serveStore(options, context);
  const target = resolveModelTarget(options.model, context.env);
  const panel = panelSettingOf(options);
  const { model, judging } = await readyRunModels(target, panel, options.timeout, context);
  const { env, cwd } = context;
  // Stopping cuts the runs under way short: each thread stays at its last step, to go on later.
  const stopping = stop;
  const desk = await openCliDesk({ store, env, cwd, model, judging, runJobs: true, stopping });
  const service = await startService({
    desk,
    host: options.host,
    port: options.port,
    sessionSecret: context.env.EVALGATE_SESSION_SECRET,
  }).catch(async (error: unknown) => {
    await desk.close();
    throw listenError(error, options) ?? error;
  });
  context.stdout.write(
    `evalgate review service on ${service.url} (store: ${describeStore(store, context.cwd)})\n`,
  );
  await untilStopped(stop);
  context.stderr.write("evalgate serve: shutting down\n");
  await service.close();
  context.stderr.write("evalgate serve: stopped\n");
}
