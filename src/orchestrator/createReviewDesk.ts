/**
 * The review desk on the review store and the checkpoints, in one database: SQLite (one process,
 * in-process jobs) or PostgreSQL (any number of replicas, pg-boss jobs). Requests only read the
 * index and one thread's checkpoint, or record a row; the graph runs in jobs.
 */
import { randomUUID } from "node:crypto";
import { ReviewDecisionSchema } from "../graph/model.js";
import type { OverallProposalStateType } from "../graph/state.js";
import { createChatModel, type JudgeModel } from "../llm/chatModel.js";
import { openReviewStore, reviewStoreLocation } from "../store/index.js";
import { hashToken } from "../store/tokens.js";
import type { ReviewStore } from "../store/types.js";
import { createCheckpointer } from "./checkpointer.js";
import {
  alreadyDecided,
  decodeCursor,
  encodeCursor,
  listItemOf,
  reviewDetailOf,
  threadStatusOf,
  titleFrom,
} from "./deskViews.js";
import {
  ActionNotOfferedError,
  ForbiddenError,
  InvalidInputError,
  NotAssignedError,
  ReviewNotPendingError,
  UnknownThreadError,
} from "./errors.js";
import { InProcessJobQueue, type JobQueue } from "./jobs/jobQueue.js";
import { PgBossJobQueue } from "./jobs/pgBossQueue.js";
import { compileProposalGraph, type ProposalRuntimeOptions } from "./proposalRuntime.js";
import type { DecisionRequest, ReviewDesk, Reviewer, ThreadStatus } from "./reviewDesk.js";
import { type AdvanceOutcome, createThreadRunner } from "./threadRunner.js";

export interface ReviewDeskOptions extends Omit<ProposalRuntimeOptions, "model"> {
  /** SQLite file (default `.evalgate/checkpoints.sqlite` under `cwd`). */
  sqlitePath?: string;
  /** PostgreSQL URL (default: DATABASE_URL when no sqlitePath is given). */
  databaseUrl?: string;
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  /** The writer and judge: a model or a `provider:model` spec (default EVALGATE_MODEL on Ollama). */
  model?: JudgeModel | string;
  jobs?: {
    /** Run jobs in this process (default true); false only records and enqueues. */
    run?: boolean;
    concurrency?: number;
    /** How often threads with work left and no live job are looked for (PostgreSQL). Default 10 s. */
    recoveryIntervalMs?: number;
  };
  /** Where job errors go (default: stderr). */
  onJobError?: (threadId: string | undefined, error: unknown) => void;
}

/** The desk, plus what the CLI uses of it: the store, and advancing a thread in this process. */
export interface ReviewDeskHandle extends ReviewDesk {
  readonly store: ReviewStore;
  /** Advances the thread here and now (the CLI's `review` and `run`); `busy` when it runs elsewhere. */
  advanceThread(threadId: string): Promise<AdvanceOutcome>;
}

function reportJobError(threadId: string | undefined, error: unknown): void {
  const what = threadId === undefined ? "job queue" : `thread ${threadId}`;
  process.stderr.write(
    `evalgate: ${what}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}

export async function createReviewDesk(options: ReviewDeskOptions = {}): Promise<ReviewDeskHandle> {
  const location = reviewStoreLocation(options);
  const env = options.env ?? process.env;
  const checkpointer = await createCheckpointer(
    location.kind === "postgres"
      ? { databaseUrl: location.url, env }
      : { sqlitePath: location.path, env },
  );
  let store: ReviewStore;
  try {
    store = await openReviewStore(
      location.kind === "postgres" ? { databaseUrl: location.url } : { sqlitePath: location.path },
    );
  } catch (error) {
    await checkpointer.close();
    throw error;
  }
  const model =
    typeof options.model === "string" ? createChatModel(options.model, { env }) : options.model;
  const { model: _spec, ...runtimeOptions } = options;
  const runtime = compileProposalGraph(checkpointer.saver, {
    ...runtimeOptions,
    ...(model === undefined ? {} : { model }),
  });
  const runner = createThreadRunner(store, runtime);
  const onError = options.onJobError ?? reportJobError;
  const concurrency = options.jobs?.concurrency ?? 2;
  const queue: JobQueue =
    location.kind === "postgres"
      ? new PgBossJobQueue(location.url, { concurrency, onError: (e) => onError(undefined, e) })
      : new InProcessJobQueue({ concurrency, onError });
  const runJobs = options.jobs?.run ?? true;
  let sweep: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();

  /** Threads with work left and no job on them (untouched for `idleMs`). */
  async function recover(idleMs: number): Promise<void> {
    const before = new Date(Date.now() - idleMs).toISOString();
    for (const threadId of await store.threadsNeedingWork(before)) {
      if (location.kind === "sqlite") await queue.enqueue(threadId);
      // On PostgreSQL a free lock means no live replica runs the thread: run it here.
      else await runner.advance(threadId).catch((error: unknown) => onError(threadId, error));
    }
  }

  if (!runJobs) await queue.start();
  else {
    await queue.start(async (threadId) =>
      (await runner.advance(threadId)) === "busy" ? "busy" : "done",
    );
    // SQLite: this process is the only one running jobs, so whatever is left was interrupted.
    if (location.kind === "sqlite") await recover(-1000);
    else {
      const every = options.jobs?.recoveryIntervalMs ?? 10_000;
      sweep = setInterval(() => {
        sweeping = sweeping
          .then(() => recover(every))
          .catch((error: unknown) => onError(undefined, error));
      }, every);
    }
  }

  async function access(threadId: string, by: Reviewer) {
    const thread = await store.thread(threadId);
    if (thread === undefined) throw new UnknownThreadError(threadId);
    if (by.role !== "admin" && !(await store.isAssigned(threadId, by.name))) {
      throw new NotAssignedError(threadId, by.name);
    }
    return thread;
  }

  async function snapshotOf(threadId: string) {
    const tuple = await checkpointer.saver.getTuple({ configurable: { thread_id: threadId } });
    if (tuple === undefined) return undefined;
    return runtime.graph.getState({ configurable: { thread_id: threadId } });
  }

  async function decide(threadId: string, request: DecisionRequest, by: Reviewer) {
    await access(threadId, by);
    const pending = await store.pendingOf(threadId);
    const row = pending.find((p) => p.interruptId === request.interruptId);
    if (row === undefined) {
      const earlier = await store.decisionFor(threadId, request.interruptId);
      if (earlier !== undefined) throw alreadyDecided(earlier);
      throw new ReviewNotPendingError(
        threadId,
        request.interruptId,
        pending.map((p) => p.interruptId),
      );
    }
    if (!row.actions.includes(request.action))
      throw new ActionNotOfferedError(request.action, row.actions);
    const { interruptId: _id, ...decision } = request;
    const parsed = ReviewDecisionSchema.safeParse({ ...decision, reviewer: by.name });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidInputError(
        issue?.path.map(String).join(".") || "action",
        issue?.message ?? "invalid",
      );
    }
    const { action, reviewer: _who, ...payload } = parsed.data;
    const result = await store.recordDecision({
      id: randomUUID(),
      threadId,
      interruptId: request.interruptId,
      stage: row.stage,
      reviewer: by.name,
      action,
      payload,
      decidedAt: new Date().toISOString(),
    });
    if (result.kind === "already_decided") throw alreadyDecided(result.decision);
    if (result.kind === "not_pending") {
      const now = await store.pendingOf(threadId);
      throw new ReviewNotPendingError(
        threadId,
        request.interruptId,
        now.map((p) => p.interruptId),
      );
    }
    // Durable from here: if the enqueue is lost with this process, recovery finds the decision.
    await queue.enqueue(threadId).catch((error: unknown) => onError(threadId, error));
    return { decisionId: result.decision.id };
  }

  const desk: ReviewDeskHandle = {
    store,
    advanceThread: (threadId) => runner.advance(threadId),
    async authenticate(token) {
      if (token.trim() === "") return undefined;
      return store.reviewerByTokenHash(hashToken(token));
    },
    async startProposal(input, by) {
      const threadId = randomUUID();
      const graphInput = { rfpDocument: input.rfp, applicantInput: input.applicant };
      await store.createThread(
        {
          id: threadId,
          title: input.title ?? titleFrom(input.rfp),
          creator: by.name,
          status: "queued",
          settings: {
            input: graphInput,
            ...(options.maxRevisions === undefined ? {} : { maxRevisions: options.maxRevisions }),
          },
        },
        { type: "queued", message: `started by ${by.name}` },
      );
      await queue.enqueue(threadId).catch((error: unknown) => onError(threadId, error));
      return { threadId };
    },
    async assignReviewer(threadId, name, by) {
      if (by.role !== "admin") throw new ForbiddenError("assign reviewers", by.name);
      await access(threadId, by);
      const reviewer = await store.reviewerByName(name);
      if (reviewer === undefined || reviewer.revokedAt !== null) {
        throw new InvalidInputError("name", `no active reviewer named "${name}"`);
      }
      await store.assign(threadId, name);
    },
    async listReviews(by, page) {
      const after = decodeCursor(page);
      const rows = await store.listPending({
        limit: page.limit + 1,
        ...(by.role === "admin" ? {} : { reviewer: by.name }),
        ...(after === undefined ? {} : { after }),
      });
      const items = rows.slice(0, page.limit);
      const last = items[items.length - 1];
      return {
        items: items.map(listItemOf),
        nextCursor: rows.length > page.limit && last !== undefined ? encodeCursor(last) : null,
      };
    },
    async getReview(threadId, by) {
      await access(threadId, by);
      const [row] = await store.pendingOf(threadId);
      const snapshot = row === undefined ? undefined : await snapshotOf(threadId);
      const detail =
        row === undefined || snapshot === undefined
          ? undefined
          : reviewDetailOf(row, snapshot, runtime.stages);
      if (detail === undefined)
        throw new ReviewNotPendingError(threadId, row?.interruptId ?? "(any)", []);
      return detail;
    },
    decide,
    async threadStatus(threadId, by): Promise<ThreadStatus> {
      const thread = await access(threadId, by);
      const snapshot = await snapshotOf(threadId);
      const values = snapshot?.values as OverallProposalStateType | undefined;
      const [reviewers, decisions] = await Promise.all([
        store.assignees(threadId),
        store.decisionsOf(threadId),
      ]);
      return threadStatusOf(thread, values, runtime.stages, reviewers, decisions);
    },
    async events(threadId, by, afterSeq) {
      await access(threadId, by);
      return store.eventsAfter(threadId, afterSeq, 500);
    },
    ready: () => store.ping(),
    async close() {
      if (sweep !== undefined) clearInterval(sweep);
      await sweeping;
      await queue.stop();
      await store.close();
      await checkpointer.close();
    },
  };
  return desk;
}
