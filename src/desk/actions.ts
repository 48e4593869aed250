/** The desk's steps over one context; requests read the index or record a row, jobs run the graph. */
import { randomUUID } from "node:crypto";
import type { StateSnapshot } from "@langchain/langgraph";
import type { OverallProposalStateType } from "../graph/state.js";
import { describeProgress, threadProgress } from "../graph/threadProgress.js";
import type { Checkpointer } from "../orchestrator/checkpointer.js";
import type { JobQueue } from "../orchestrator/jobs/jobQueue.js";
import type { ThreadRunner } from "../orchestrator/threadRunner.js";
import { proposalTitle } from "../proposal/title.js";
import type { Reviewer } from "../store/reviewers.js";
import type { ReviewStore } from "../store/reviewStore.js";
import type { ThreadEvent } from "../store/threadEvents.js";
import { hashToken } from "../store/tokens.js";
import { DESK_GRAPH, type PendingRow, type ThreadListRow, type ThreadRow } from "../store/types.js";
import {
  keysetPage,
  type ReviewDetail,
  ReviewListItemSchema,
  type ReviewPage,
  reviewDetailOf,
  type ThreadListPage,
  type ThreadStatus,
  threadStatusOf,
} from "./answers.js";
import {
  forbidden,
  invalidInput,
  notAssigned,
  reviewNotPending,
  threadNotFailed,
  unknownThread,
} from "./errors.js";
import type { ProposalRuntime } from "./proposalRuntime.js";
import type { PageRequest, StartProposal } from "./requests.js";

export interface DeskContext {
  kind: "sqlite" | "postgres";
  store: ReviewStore;
  rubrics?: { close(): Promise<void> };
  checkpointer: Checkpointer;
  runtime: ProposalRuntime;
  runner: ThreadRunner;
  queue: JobQueue;
  onError: (threadId: string | undefined, error: unknown) => void;
  maxRevisions: number | undefined;
}

/** Asks for the thread to be advanced; a lost enqueue is left to recovery (the store is durable). */
export async function enqueueThread(ctx: DeskContext, threadId: string): Promise<void> {
  await ctx.queue.enqueue(threadId).catch((error: unknown) => ctx.onError(threadId, error));
}

/** Threads with work left and no job on them (untouched for `idleMs`). */
export async function recoverThreads(ctx: DeskContext, idleMs: number): Promise<void> {
  const before = new Date(Date.now() - idleMs).toISOString();
  for (const threadId of await ctx.store.threadsNeedingWork(before)) {
    if (ctx.kind === "sqlite") await ctx.queue.enqueue(threadId);
    // On PostgreSQL a free lock means no live replica runs the thread: run it here.
    else await ctx.runner.advance(threadId).catch((error: unknown) => ctx.onError(threadId, error));
  }
}

/** The thread, when it exists and the reviewer may see it. */
export async function accessThread(
  ctx: DeskContext,
  threadId: string,
  by: Reviewer,
): Promise<ThreadRow> {
  const thread = await ctx.store.thread(threadId);
  // Threads a library orchestrator keeps in the same store are not the desk's.
  if (thread === undefined || thread.graph !== DESK_GRAPH) throw unknownThread(threadId);
  if (by.role !== "admin" && !(await ctx.store.isAssigned(threadId, by.name))) {
    throw notAssigned(threadId, by.name);
  }
  return thread;
}

/** The thread's state; undefined when it has no checkpoint. */
export async function snapshotOf(ctx: DeskContext, threadId: string) {
  const snapshot = await ctx.runtime.graph.getState({ configurable: { thread_id: threadId } });
  return snapshot.createdAt === undefined ? undefined : snapshot;
}

export async function authenticate(ctx: DeskContext, token: string) {
  if (token.trim() === "") return undefined;
  return ctx.store.reviewerByTokenHash(hashToken(token));
}

export async function startProposal(ctx: DeskContext, input: StartProposal, by: Reviewer) {
  const threadId = randomUUID();
  const graphInput = { rfpDocument: input.rfp, applicantInput: input.applicant };
  await ctx.store.createThread(
    {
      id: threadId,
      title: input.title ?? proposalTitle({ rfpDocument: input.rfp }),
      creator: by.name,
      status: "queued",
      settings: {
        input: graphInput,
        ...(ctx.maxRevisions === undefined ? {} : { maxRevisions: ctx.maxRevisions }),
      },
    },
    { type: "queued", message: `started by ${by.name}` },
  );
  await enqueueThread(ctx, threadId);
  return { threadId };
}

export async function assignReviewer(
  ctx: DeskContext,
  threadId: string,
  name: string,
  by: Reviewer,
): Promise<void> {
  if (by.role !== "admin") throw forbidden("assign reviewers", by.name);
  await accessThread(ctx, threadId, by);
  const reviewer = await ctx.store.reviewerByName(name);
  if (reviewer === undefined || reviewer.revokedAt !== null) {
    throw invalidInput("name", `no active reviewer named "${name}"`);
  }
  await ctx.store.assign(threadId, name);
}

/** Whose rows a reviewer lists: their own threads', or every thread for an admin. */
const scopeOf = (by: Reviewer) => (by.role === "admin" ? {} : { reviewer: by.name });

export async function listReviews(
  ctx: DeskContext,
  by: Reviewer,
  page: PageRequest,
): Promise<ReviewPage> {
  const read = (limit: number, after?: [string, string]) =>
    ctx.store.listPending({
      limit,
      ...scopeOf(by),
      ...(after === undefined ? {} : { after: { createdAt: after[0], threadId: after[1] } }),
    });
  // The schema keeps the row's fields a queue item has.
  const item = (row: PendingRow) => ReviewListItemSchema.parse(row);
  return keysetPage(page, read, item, (row) => [row.createdAt, row.threadId]);
}

/** Read from the store's thread rows, never from checkpoints. */
export async function finishedProposals(
  ctx: DeskContext,
  by: Reviewer,
  page: PageRequest,
): Promise<ThreadListPage> {
  const read = (limit: number, after?: [string, string]) =>
    ctx.store.listThreads({
      status: "finished",
      limit,
      ...scopeOf(by),
      ...(after === undefined ? {} : { after: { updatedAt: after[0], threadId: after[1] } }),
    });
  const item = (row: ThreadListRow) => ({
    threadId: row.id,
    title: row.title,
    startedAt: row.createdAt,
    finishedAt: row.updatedAt,
  });
  return keysetPage(page, read, item, (row) => [row.updatedAt, row.id]);
}

export async function getReview(
  ctx: DeskContext,
  threadId: string,
  by: Reviewer,
): Promise<ReviewDetail> {
  await accessThread(ctx, threadId, by);
  const [row] = await ctx.store.pendingOf(threadId);
  const detail = row && reviewDetailOf(row, await snapshotOf(ctx, threadId), ctx.runtime.stages);
  if (detail === undefined) throw reviewNotPending(threadId, undefined, []);
  return detail;
}

/**
 * A thread the store calls finished or waiting while its checkpoint has work left and no review (a
 * process died between a node's writes and the next checkpoint) is reported failed, so a retry runs it on.
 */
function checkedStatus(thread: ThreadRow, snapshot: StateSnapshot | undefined) {
  const progress = snapshot === undefined ? undefined : threadProgress(snapshot);
  const settled = thread.status === "finished" || thread.status === "waiting";
  if (!settled || progress === undefined) return thread;
  if (progress.kind === "finished" || progress.kind === "paused") return thread;
  return {
    ...thread,
    status: "failed" as const,
    error: `${describeProgress(progress)}; retry the thread to run on`,
  };
}

export async function threadStatus(
  ctx: DeskContext,
  threadId: string,
  by: Reviewer,
): Promise<ThreadStatus> {
  const thread = await accessThread(ctx, threadId, by);
  const snapshot = await snapshotOf(ctx, threadId);
  const [reviewers, decisions, labels] = await Promise.all([
    ctx.store.assignees(threadId),
    ctx.store.decisionsOf(threadId),
    ctx.store.labelsFor(threadId),
  ]);
  const values = snapshot?.values as OverallProposalStateType | undefined;
  const checked = checkedStatus(thread, snapshot);
  return threadStatusOf(checked, values, ctx.runtime.stages, reviewers, decisions, labels);
}

/**
 * Queues a failed thread again, or one whose checkpoint has work left without a review (its
 * process died mid-run, or its run was stopped); anything else is THREAD_NOT_FAILED.
 */
export async function retryThread(ctx: DeskContext, threadId: string, by: Reviewer) {
  await accessThread(ctx, threadId, by);
  if (!(await ctx.store.retryThread(threadId, by.name))) {
    const thread = await ctx.store.thread(threadId);
    const snapshot = await snapshotOf(ctx, threadId);
    const progress = snapshot === undefined ? undefined : threadProgress(snapshot);
    // Queued: a retry (or a start) is already on its way; one retry at a time is taken.
    const stranded =
      thread !== undefined &&
      thread.status !== "queued" &&
      progress?.kind === "work_left" &&
      !(await ctx.store.threadLocked(threadId));
    if (!stranded) throw threadNotFailed(threadId, thread?.status ?? "gone");
    await ctx.store.setThreadStatus(threadId, "queued", null, {
      type: "queued",
      message: `retried by ${by.name}: ${describeProgress(progress)}`,
    });
  }
  await enqueueThread(ctx, threadId);
  return { threadId, status: "queued" as const };
}

export async function threadEvents(
  ctx: DeskContext,
  threadId: string,
  by: Reviewer,
  afterSeq: number,
): Promise<ThreadEvent[]> {
  await accessThread(ctx, threadId, by);
  return ctx.store.eventsAfter(threadId, afterSeq, 500);
}
