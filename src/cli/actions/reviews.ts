/** `evalgate reviews`: the threads of the checkpoint store that wait for a reviewer. */
import type { CliContext } from "../context.js";
import { renderPendingList } from "../review/display.js";
import { openReviewSession } from "../review/session.js";
import { describeStore, resolveCheckpointStore, storeExists } from "../review/store.js";

export interface ReviewsCommandOptions {
  db?: string;
}

export async function runReviewList(
  options: ReviewsCommandOptions,
  context: CliContext,
): Promise<void> {
  const { cwd, env } = context;
  const store = resolveCheckpointStore(options.db, env, cwd);
  const where = describeStore(store, cwd);
  if (!storeExists(store)) {
    context.stdout.write(`No paused threads: there is no checkpoint file at ${where}.\n`);
    return;
  }
  const session = await openReviewSession({ store, env, cwd });
  try {
    const reviews = await session.orchestrator.pendingReviews();
    if (reviews.length === 0) {
      context.stdout.write(`No paused threads in ${where}.\n`);
      return;
    }
    context.stdout.write(renderPendingList(reviews));
  } finally {
    await session.close();
  }
}
