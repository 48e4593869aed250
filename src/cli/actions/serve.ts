/**
 * `evalgate serve`: opens the review desk on the data folder (or DATABASE_URL), serves the review
 * service, and shuts both down gracefully when the command is cancelled (SIGINT, SIGTERM).
 */
import { join } from "node:path";
import { createReviewDesk } from "../../orchestrator/createReviewDesk.js";
import { startService } from "../../service/server.js";
import type { PanelFlags } from "../commands/options.js";
import type { CliContext } from "../context.js";
import { panelJudging, panelSettingOf } from "../panelJudges.js";
import { describeStore, resolveCheckpointStore } from "../review/store.js";

/** The options of `evalgate serve`, as commander parsed them. */
export interface RawServeOptions extends PanelFlags {
  host: string;
  port: number;
  data?: string;
  model?: string;
}

function untilStopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Serves until `stop` is aborted, then shuts down gracefully. */
export async function serveReviews(
  options: RawServeOptions,
  context: CliContext,
  stop: AbortSignal,
): Promise<void> {
  const data = options.data?.trim();
  const sqlite = data === undefined || data === "" ? undefined : join(data, "checkpoints.sqlite");
  const store = resolveCheckpointStore(sqlite, context.env, context.cwd);
  const setting = panelSettingOf(options);
  // The panel's models are built here and checked at their first call, as the model is.
  const judging = setting === undefined ? undefined : await panelJudging(setting, context, false);
  const desk = await createReviewDesk({
    ...(store.kind === "sqlite" ? { sqlitePath: store.path } : { databaseUrl: store.url }),
    env: context.env,
    cwd: context.cwd,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(judging === undefined
      ? {}
      : { graph: { evaluation: { judges: judging.judges, panel: judging.panel } } }),
  });
  const service = await startService({
    desk,
    host: options.host,
    port: options.port,
    sessionSecret: context.env.EVALGATE_SESSION_SECRET,
  }).catch(async (error: unknown) => {
    await desk.close();
    throw error;
  });
  context.stdout.write(
    `evalgate review service on ${service.url} (store: ${describeStore(store, context.cwd)})\n`,
  );
  await untilStopped(stop);
  context.stderr.write("evalgate serve: shutting down\n");
  await service.close();
  context.stderr.write("evalgate serve: stopped\n");
}
