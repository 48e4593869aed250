/**
 * `evalgate review --retry <thread>`: a failed thread queued again through the review desk's
 * retry (as the service's Retry button and `POST /api/threads/:id/retry` do: once, whoever asks
 * at the same time; a decision the graph refused is set aside so its review can be decided anew),
 * then advanced here, and the review it waits for next printed.
 */
import type { ReviewDeskHandle } from "../../desk/createReviewDesk.js";
import type { CliContext } from "../context.js";
import { CliError } from "../errors.js";
import { EXIT_OK } from "../exitCodes.js";
import { resolveModelTarget } from "../modelCheck.js";
import { readyRunModels } from "../panelJudges.js";
import { createStageProgressReporter } from "../progressStages.js";
import { cliReviewer, continueThread, deskRefusal, openRunDesk } from "../review/deskPath.js";
import { renderReview, renderRunSummary, stageContent } from "../review/display.js";
import { reviewCommandHint } from "../review/hints.js";
import { checkedReviewerArg, checkedThreadArg } from "../review/reviewArgs.js";
import { readThreadRecord } from "../review/settings.js";
import { describeStore, storeExists, storeOfFlags } from "../review/store.js";
import { threadView } from "../review/threadView.js";
import type { ReviewCommandOptions } from "./review.js";

/** Prints where the retried thread stands now: its next review, or the run's summary. */
async function printNext(
  desk: ReviewDeskHandle,
  threadId: string,
  hint: (review: Parameters<typeof reviewCommandHint>[0]) => string,
  context: CliContext,
) {
  const view = await threadView(desk, threadId);
  const out = context.stdout;
  if (view.kind === "paused") {
    const stage = desk.stages.find((s) => s.id === view.review.contentId);
    const content = stage === undefined ? undefined : stageContent(view.values, stage);
    out.write(`\nnext review\n\n${renderReview(view.review, content)}\nDecide with:\n`);
    out.write(hint(view.review));
  } else if (view.kind === "completed") {
    out.write(`completed\n\n${renderRunSummary(view.values, desk.stages)}`);
  } else {
    out.write(`stopped with work left at ${view.next.join(", ")}\n`);
  }
}

export async function runRetryThread(
  threadId: string,
  options: ReviewCommandOptions,
  context: CliContext,
): Promise<void> {
  const { cwd, env } = context;
  checkedThreadArg(threadId);
  checkedReviewerArg(options.reviewer);
  const store = storeOfFlags(options, env, cwd);
  if (!storeExists(store)) {
    throw new CliError(
      `no thread "${threadId}": there is no checkpoint file at ${describeStore(store, cwd)}`,
    );
  }
  const at = { cwd, stderr: context.stderr };
  const stored = (await readThreadRecord(store, threadId, at)).settings;
  const maxRevisions = options.maxRevisions ?? stored?.maxRevisions;
  // What runs again is a model call (the judge or the writer, or the thread's panel).
  const target = resolveModelTarget(options.model ?? stored?.model, env);
  const models = await readyRunModels(target, stored?.panel, options.timeout, context);
  const progress = createStageProgressReporter(context.stderr);
  let desk: ReviewDeskHandle | undefined;
  try {
    desk = await openRunDesk({ store, env, cwd, onProgress: progress.onProgress }, models, {
      maxRevisions,
      cache: options.cache,
    });
    await desk.retryThread(threadId, cliReviewer(options.reviewer)).catch((error: unknown) => {
      throw deskRefusal(error) ?? error;
    });
    context.stdout.write(`retried thread ${threadId}\n`);
    await continueThread(desk, threadId, cliReviewer(options.reviewer));
    progress.finish();
    await printNext(
      desk,
      threadId,
      (review) => reviewCommandHint(review, { store, cwd, env }),
      context,
    );
    context.exitCode = EXIT_OK;
  } finally {
    progress.finish();
    await desk?.close();
  }
}
