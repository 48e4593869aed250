/**
 * `evalgate reviews`: from the pending-review index (never a scan of the checkpoints), then the
 * threads with work left.
 */

import type { ReviewStore } from "../../store/reviewStore.js";
import type { PendingRow } from "../../store/types.js";
import type { CliContext } from "../context.js";
import { renderFailedList, renderIndexList, renderWorkLeftList } from "../review/display.js";
import {
  describeStore,
  type HintContext,
  retryCommand,
  runThreadCommand,
  type StoreFlags,
  storeExists,
  storeOfFlags,
  withReviewStore,
} from "../review/store.js";
import {
  type FailedThread,
  failedThreads,
  threadsWithWorkLeft,
  type WorkLeftThread,
} from "../review/workLeft.js";

export interface ReviewsCommandOptions extends StoreFlags {
  json?: boolean;
}

const PAGE = 500;

/** Every row of the pending-review index, the longest waiting first. */
async function pendingRows(index: ReviewStore): Promise<PendingRow[]> {
  const rows: PendingRow[] = [];
  for (;;) {
    const last = rows[rows.length - 1];
    const page = await index.listPending({
      limit: PAGE,
      ...(last === undefined
        ? {}
        : { after: { createdAt: last.createdAt, threadId: last.threadId } }),
    });
    rows.push(...page);
    if (page.length < PAGE) break;
  }
  // The longest waiting first, as a to-do list reads.
  return rows.reverse();
}

interface Listing {
  rows: readonly PendingRow[];
  left: readonly WorkLeftThread[];
  failed: readonly FailedThread[];
}

/** `reviews --json`: the paused threads, the threads with work left and the failed ones, as data. */
function listAsJson(where: string, { rows, left, failed }: Listing, at: HintContext): string {
  const reviews = rows.map(({ createdAt, ...row }) => ({ ...row, waitingSince: createdAt }));
  const workLeft = left.map((thread) => ({
    ...thread,
    goOnWith: thread.state === "running" ? null : runThreadCommand(thread.threadId, at),
  }));
  const failedOnes = failed.map((thread) => ({
    ...thread,
    retryWith: retryCommand(thread.threadId, at),
  }));
  return `${JSON.stringify({ store: where, reviews, workLeft, failed: failedOnes }, null, 2)}\n`;
}

export async function runReviewList(
  options: ReviewsCommandOptions,
  context: CliContext,
): Promise<void> {
  const { cwd, env } = context;
  const store = storeOfFlags(options, env, cwd);
  const where = describeStore(store, cwd);
  const at = { store, cwd, env };
  if (!storeExists(store)) {
    context.stdout.write(
      options.json === true
        ? listAsJson(where, { rows: [], left: [], failed: [] }, at)
        : `No paused threads: there is no checkpoint file at ${where}.\n`,
    );
    return;
  }
  await withReviewStore(store, async (index) => {
    const rows = await pendingRows(index);
    const left = await threadsWithWorkLeft(index, store, env);
    const failed = await failedThreads(index);
    if (options.json === true) {
      context.stdout.write(listAsJson(where, { rows, left, failed }, at));
      return;
    }
    if (rows.length === 0) context.stdout.write(`No paused threads in ${where}.\n`);
    else context.stdout.write(renderIndexList(rows));
    if (left.length > 0) {
      const goOnWith = (threadId: string) => runThreadCommand(threadId, at);
      context.stdout.write(
        `\nThreads with work left and no review (${left.length}):\n${renderWorkLeftList(left, goOnWith)}`,
      );
    }
    if (failed.length > 0) {
      const retryWith = (threadId: string) => retryCommand(threadId, at);
      context.stdout.write(
        `\nFailed threads (${failed.length}):\n${renderFailedList(failed, retryWith)}`,
      );
    }
  });
}
