/**
 * The thread `evalgate run` goes on with: a new one, or an existing one after the work it had left.
 */
import { randomUUID } from "node:crypto";
import type { ReviewDeskHandle } from "../../desk/createReviewDesk.js";
import { isThreadNotFoundError } from "../../orchestrator/errors.js";
import { proposalTitle } from "../../proposal/title.js";
import { withoutUrlCredentials } from "../../redact.js";
import type { CliContext } from "../context.js";
import { CliError } from "../errors.js";
import {
  cliReviewer,
  continueThread,
  startThread,
  type ThreadView,
  threadView,
  workLeftBeforeReview,
} from "./deskPath.js";
import type { RunCommandOptions, RunPlan } from "./runPlan.js";
import { type RunSettings, storedRunSettings } from "./settings.js";
import { describeStore } from "./store.js";

export interface OpenRun {
  desk: ReviewDeskHandle;
}

/** The settings kept with the thread: the plan's model, revision limit and panel. */
function keptSettings(
  plan: RunPlan,
  context: CliContext,
  earlier: Partial<RunSettings> = {},
): Record<string, unknown> {
  const { target, maxRevisions } = plan;
  const startedAt = earlier.startedAt ?? new Date().toISOString();
  // A password in a model's URL is never written to the store: it is given again to go on.
  const model = withoutUrlCredentials(target.spec);
  const panel =
    plan.panel === undefined
      ? undefined
      : { ...plan.panel, judges: plan.panel.judges.map(withoutUrlCredentials) };
  if (model !== target.spec || plan.panel?.judges.some((judge, i) => judge !== panel?.judges[i])) {
    context.stderr.write(`${CREDENTIALS_NOT_KEPT}\n`);
  }
  return storedRunSettings({ ...earlier, model, maxRevisions, panel, startedAt });
}

/** Said when a model's URL carries credentials, which the thread's settings leave out. */
export const CREDENTIALS_NOT_KEPT =
  "the credentials in the model's URL are not kept with the thread: give --model (or --judge) again when you go on with it";

/** Goes on with an existing thread: settings given again are kept, a stopped run runs on. */
async function resumeRun(
  earlier: ThreadView,
  threadId: string,
  plan: RunPlan,
  open: OpenRun,
  options: RunCommandOptions,
  context: CliContext,
): Promise<ThreadView> {
  const { store, stored } = plan;
  const from = describeStore(store, context.cwd);
  context.stdout.write(
    earlier.kind === "completed"
      ? `thread ${threadId} (in ${from}) has completed already: nothing is left to run\n`
      : `thread ${threadId} (resumed from ${from})\n`,
  );
  if (plan.rfp !== undefined || plan.applicant !== undefined) {
    context.stderr.write(
      `the RFP and applicant files are not used: thread ${threadId} has its own\n`,
    );
  }
  const panelGiven = (options.judge?.length ?? 0) > 0;
  if (options.model !== undefined || options.maxRevisions !== undefined || panelGiven) {
    // Settings given again on resume are the thread's from now on (for `review` too).
    await open.desk.store.saveRunSettings(threadId, keptSettings(plan, context, stored));
  }
  const left = await workLeftBeforeReview(open.desk, threadId, earlier);
  if (left === undefined) return earlier;
  context.stdout.write(`${left}\n`);
  await continueThread(open.desk, threadId, cliReviewer(options.reviewer));
  return threadView(open.desk, threadId);
}

/** Said when a run starts without --applicant: what is missing, and how to give it. */
export const NO_APPLICANT =
  "no --applicant file: the proposal will be written without the applicant's details (organisation, track record, idea); give them with --applicant <file>";

async function startRun(
  rfpFile: string | undefined,
  plan: RunPlan,
  open: OpenRun,
  options: RunCommandOptions & { newThreadId?: string },
  context: CliContext,
): Promise<{ threadId: string; view: ThreadView }> {
  const { rfp, applicant, store } = plan;
  if (rfp === undefined) {
    throw new CliError(
      `no thread "${options.thread}" in ${describeStore(store, context.cwd)}; give an RFP file to start one`,
    );
  }
  const threadId = options.thread ?? options.newThreadId ?? randomUUID();
  context.stdout.write(
    `thread ${threadId} (checkpoints in ${describeStore(store, context.cwd)})\n`,
  );
  // Kept with the thread, in the transaction that records it.
  const settings = keptSettings(plan, context, { rfpFile });
  if (applicant === undefined) context.stderr.write(`${NO_APPLICANT}\n`);
  context.stderr.write("writing and judging until the first review…\n");
  const input = {
    rfpDocument: rfp,
    ...(applicant === undefined ? {} : { applicantInput: applicant }),
  };
  // Until the research names it: "A proposal in response to <the RFP's title>".
  const title = proposalTitle({ rfpDocument: rfp }, threadId);
  await startThread(open.desk, threadId, { input, title, settings }, cliReviewer(options.reviewer));
  return { threadId, view: await threadView(open.desk, threadId) };
}

/** An existing thread (--thread), or a new one (`newThreadId`, when the command chose its id). */
export async function openThread(
  rfpFile: string | undefined,
  plan: RunPlan,
  open: OpenRun,
  options: RunCommandOptions & { newThreadId?: string },
  context: CliContext,
): Promise<{ threadId: string; view: ThreadView }> {
  const threadId = options.thread;
  if (threadId === undefined) return startRun(rfpFile, plan, open, options, context);
  const earlier = await threadView(open.desk, threadId).catch((error: unknown) => {
    if (isThreadNotFoundError(error)) return undefined;
    throw error;
  });
  if (earlier !== undefined) {
    return { threadId, view: await resumeRun(earlier, threadId, plan, open, options, context) };
  }
  const registered = await open.desk.store.thread(threadId);
  if (registered?.settings.input === undefined) {
    return startRun(rfpFile, plan, open, options, context);
  }
  context.stdout.write(
    `thread ${threadId} stopped before its first checkpoint; running it from its input.\n`,
  );
  await continueThread(open.desk, threadId, cliReviewer(options.reviewer));
  return { threadId, view: await threadView(open.desk, threadId) };
}
