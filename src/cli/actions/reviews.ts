/**
 * `evalgate reviews`: the threads of the store that wait for a reviewer, read from the
 * pending-review index (one indexed query per page, never a scan of the checkpoints), then the
 * threads with work left and no review (a run that died mid-step), each judged on its checkpoint.
 */
import { openReviewStore } from "../../store/index.js";
import type { PendingRow } from "../../store/types.js";
import type { CliContext } from "../context.js";
import { renderIndexList, renderWorkLeftList } from "../review/display.js";
import {
  dbHint,
  describeStore,
  quoteArg,
  resolveCheckpointStore,
  storeExists,
} from "../review/store.js";
import { threadsWithWorkLeft } from "../review/workLeft.js";

export interface ReviewsCommandOptions {
  db?: string;
}

const PAGE = 500;

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
  const index = await openReviewStore(
    store.kind === "sqlite" ? { sqlitePath: store.path } : { databaseUrl: store.url },
  );
  try {
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
    if (rows.length === 0) context.stdout.write(`No paused threads in ${where}.\n`);
    else context.stdout.write(renderIndexList(rows.reverse()));
    const left = await threadsWithWorkLeft(index, store, env);
    if (left.length > 0) {
      const db = dbHint(store, cwd);
      context.stdout.write(
        `\nThreads with work left and no review (${left.length}):\n${renderWorkLeftList(
          left,
          (threadId) => `evalgate run --thread ${quoteArg(threadId)}${db}`,
        )}`,
      );
    }
  } finally {
    await index.close();
  }
}
