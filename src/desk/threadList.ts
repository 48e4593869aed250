/**
 * The list of finished proposals: the threads of the review desk that finished, the reviewer's
 * own (an administrator's: all of them), last finished first, a keyset page at a time, read from
 * the store's thread rows and never from checkpoints.
 */

import type { Reviewer } from "../store/reviewers.js";
import type { ThreadListCursor } from "../store/types.js";
import type { DeskContext } from "./actions.js";
import type { ThreadListPage } from "./answers.js";
import { invalidInput } from "./errors.js";
import type { ThreadListRequest } from "./requests.js";

function encodeThreadCursor(cursor: ThreadListCursor): string {
  const pair = JSON.stringify([cursor.updatedAt, cursor.threadId]);
  return Buffer.from(pair, "utf8").toString("base64url");
}

function decodeThreadCursor(cursor: string | undefined): ThreadListCursor | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2) {
      const [updatedAt, threadId] = value as unknown[];
      if (typeof updatedAt === "string" && typeof threadId === "string") {
        return { updatedAt, threadId };
      }
    }
  } catch {
    // Refused below, as every other unreadable cursor.
  }
  throw invalidInput("cursor", "not a cursor this service gave out");
}

export async function finishedProposals(
  ctx: DeskContext,
  by: Reviewer,
  page: ThreadListRequest,
): Promise<ThreadListPage> {
  const after = decodeThreadCursor(page.cursor);
  const rows = await ctx.store.listThreads({
    status: "finished",
    limit: page.limit + 1,
    ...(by.role === "admin" ? {} : { reviewer: by.name }),
    ...(after === undefined ? {} : { after }),
  });
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items: items.map((row) => ({
      threadId: row.id,
      title: row.title,
      startedAt: row.createdAt,
      finishedAt: row.updatedAt,
    })),
    nextCursor:
      rows.length > page.limit && last !== undefined
        ? encodeThreadCursor({ updatedAt: last.updatedAt, threadId: last.id })
        : null,
  };
}
