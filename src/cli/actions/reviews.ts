/**
 * `evalgate reviews`: from the pending-review index (never a scan of the checkpoints), then the
 * threads with work left.
 */

import type { ReviewStore } from "../../store/reviewStore.js";
import type { PendingRow } from "../../store/types.js";
import type { CliContext } from "../context.js";
import { renderIndexList, renderWorkLeftList } from "../review/display.js";
import { runThreadCommand } from "../review/hints.js";
import {
  describeStore,
  type StoreFlags,
  storeExists,
  storeOfFlags,
  withReviewStore,
} from "../review/store.js";
import { threadsWithWorkLeft, type WorkLeftThread } from "../review/workLeft.js";

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

/** `reviews --json`: the paused threads and the threads with work left, as data. */
function listAsJson(
  where: string,
  rows: readonly PendingRow[],
  left: readonly WorkLeftThread[],
  goOnWith: (threadId: string) => string,
): string {
  const reviews = rows.map(({ createdAt, ...row }) => ({ ...row, waitingSince: createdAt }));
  const workLeft = left.map((thread) => ({
    ...thread,
    goOnWith: thread.state === "running" ? null : goOnWith(thread.threadId),
  }));
  return `${JSON.stringify({ store: where, reviews, workLeft }, null, 2)}\n`;
}

export async function runReviewList(
  options: ReviewsCommandOptions,
  context: CliContext,
): Promise<void> {
  const { cwd, env } = context;
  const store = storeOfFlags(options, env, cwd);
  const where = describeStore(store, cwd);
  const goOnWith = (threadId: string) => runThreadCommand(threadId, { store, cwd, env });
  if (!storeExists(store)) {
    context.stdout.write(
      options.json === true
        ? listAsJson(where, [], [], goOnWith)
        : `No paused threads: there is no checkpoint file at ${where}.\n`,
    );
    return;
  }
  await withReviewStore(store, async (index) => {
    const rows = await pendingRows(index);
    const left = await threadsWithWorkLeft(index, store, env);
    if (options.json === true) {
      context.stdout.write(listAsJson(where, rows, left, goOnWith));
      return;
    }
    if (rows.length === 0) context.stdout.write(`No paused threads in ${where}.\n`);
    else context.stdout.write(renderIndexList(rows));
    if (left.length > 0) {
      context.stdout.write(
        `\nThreads with work left and no review (${left.length}):\n${renderWorkLeftList(left, goOnWith)}`,
      );
    }
  });
}
