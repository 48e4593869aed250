/**
 * `evalgate review --retry <thread>`: the desk's retry (as the service's Retry button), then
 * advanced here.
 */
import type { ReviewDeskHandle } from "../../desk/createReviewDesk.js";
import type { CliContext } from "../context.js";
import { createStageProgressReporter } from "../progress.js";
import { cliReviewer, continueThread, deskRefusal } from "../review/deskPath.js";
import { checkedReviewerArg, checkedThreadArg } from "../review/reviewArgs.js";
import { refuseMissingStore, storeOfFlags } from "../review/store.js";
import { threadView } from "../review/threadView.js";
import { openThreadRunDesk, printThreadView, type ReviewCommandOptions } from "./review.js";

export async function runRetryThread(
  threadId: string,
  options: ReviewCommandOptions,
  context: CliContext,
): Promise<void> {
  const { cwd, env } = context;
  checkedThreadArg(threadId);
  checkedReviewerArg(options.reviewer);
  const store = storeOfFlags(options, env, cwd);
  refuseMissingStore(store, threadId, cwd);
  const progress = createStageProgressReporter(context.stderr);
  let desk: ReviewDeskHandle | undefined;
  try {
    desk = await openThreadRunDesk(store, threadId, options, context, progress);
    await desk.retryThread(threadId, cliReviewer(options.reviewer)).catch((error: unknown) => {
      throw deskRefusal(error) ?? error;
    });
    context.stdout.write(`retried thread ${threadId}\n`);
    await continueThread(desk, threadId, cliReviewer(options.reviewer));
    progress.finish();
    printThreadView(threadId, await threadView(desk, threadId), desk, store, context);
  } finally {
    progress.finish();
    await desk?.close();
  }
}
