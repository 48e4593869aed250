/**
 * `evalgate review --retry <thread>`: the desk's retry (as the service's Retry button), then
 * advanced here.
 */
import type { ReviewDeskHandle } from "../../desk/createReviewDesk.js";
import type { CliContext } from "../context.js";
import { resolveModelTarget } from "../modelCheck.js";
import { readyRunModels } from "../panelJudges.js";
import { createStageProgressReporter } from "../progressStages.js";
import { cliReviewer, continueThread, deskRefusal, openCliDesk } from "../review/deskPath.js";
import { checkedReviewerArg, checkedThreadArg } from "../review/reviewArgs.js";
import { readThreadRecord } from "../review/settings.js";
import { refuseMissingStore, storeOfFlags } from "../review/store.js";
import { threadView } from "../review/threadView.js";
import { printThreadView, type ReviewCommandOptions } from "./review.js";

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
  const at = { cwd, stderr: context.stderr };
  const stored = (await readThreadRecord(store, threadId, at)).settings;
  const maxRevisions = options.maxRevisions ?? stored?.maxRevisions;
  // What runs again is a model call (the judge or the writer, or the thread's panel).
  const target = resolveModelTarget(options.model ?? stored?.model, env);
  const models = await readyRunModels(target, stored?.panel, options.timeout, context);
  const progress = createStageProgressReporter(context.stderr);
  let desk: ReviewDeskHandle | undefined;
  try {
    const { onProgress } = progress;
    const cache = options.cache;
    desk = await openCliDesk({ store, env, cwd, onProgress, ...models, maxRevisions, cache });
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
