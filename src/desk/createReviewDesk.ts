/**
 * The review desk on the review store and the checkpoints, in one database: SQLite (one process,
 * in-process jobs) or PostgreSQL (any number of replicas, pg-boss jobs). Requests only read the
 * index and one thread's checkpoint, or record a row; the graph runs in jobs.
 */

import type { StateSnapshot } from "@langchain/langgraph";
import { storeExampleSource } from "../calibration/fewShot.js";
import { traceStoreOfSaver } from "../graph/runSinks.js";
import type { StageDefinition } from "../graph/stages.js";
import { createChatModel, type JudgeModel } from "../llm/chatModel.js";
import { type Checkpointer, createCheckpointer } from "../orchestrator/checkpointer.js";
import { InProcessJobQueue, type JobQueue } from "../orchestrator/jobs/jobQueue.js";
import { PgBossJobQueue } from "../orchestrator/jobs/pgBossQueue.js";
import { checkedSnapshot } from "../orchestrator/orchestratorEngine.js";
import { type AdvanceOutcome, createThreadRunner } from "../orchestrator/threadRunner.js";
import { deferAutoCheckpoint, startWalCheckpoints } from "../orchestrator/walCheckpoints.js";
import { RubricRegistry } from "../rubrics/rubricRegistry.js";
import { openReviewStore } from "../store/index.js";
import { databaseLocation } from "../store/location.js";
import type { ReviewStore } from "../store/reviewStore.js";
import { terminalSafe } from "../untrusted/terminalText.js";
import {
  assignReviewer,
  authenticate,
  type DeskContext,
  finishedProposals,
  getReview,
  listReviews,
  recoverThreads,
  retryThread,
  startProposal,
  threadEvents,
  threadStatus,
} from "./actions.js";
import { calibrationOverview } from "./calibration.js";
import { decide } from "./decide.js";
import { compileProposalGraph, type ProposalRuntimeOptions } from "./proposalRuntime.js";
import type { ReviewDesk } from "./reviewDesk.js";
import { endSession, openSession, sessionReviewer } from "./sessions.js";
import { threadProposal } from "./threadProposal.js";
import { threadTraces } from "./traces.js";

export interface ReviewDeskOptions extends Omit<ProposalRuntimeOptions, "model"> {
  /** SQLite file (default `.evalgate/checkpoints.sqlite` under `cwd`). */
  sqlitePath?: string;
  /** PostgreSQL URL (default: DATABASE_URL when no sqlitePath is given). */
  databaseUrl?: string;
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  /** The writer and judge: a model or a `provider:model` spec (default EVALGATE_MODEL on Ollama). */
  model?: JudgeModel | string;
  /**
   * Reviewer corrections kept in this database as few-shot examples: `true` for every evaluation
   * the desk runs; absent or `false`, only for a stage whose catalog turns them on.
   */
  fewShot?: boolean;
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
  /** The stages of the proposal graph, in order. */
  readonly stages: readonly StageDefinition[];
  /**
   * The thread's state as its checkpoint holds it (CHECKPOINT_NOT_FOUND without one,
   * ForeignThreadError when another graph made it), whichever way the thread was started.
   */
  threadSnapshot(threadId: string): Promise<StateSnapshot>;
  /** Advances the thread here and now (the CLI's `review` and `run`); `busy` when it runs elsewhere. */
  advanceThread(threadId: string): Promise<AdvanceOutcome>;
}

function reportJobError(threadId: string | undefined, error: unknown): void {
  const what = threadId === undefined ? "job queue" : `thread ${threadId}`;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(terminalSafe(`evalgate: ${what}: ${message}\n`));
}

/**
 * The graph's evaluation options with what the desk's database holds, unless the caller gave its
 * own: the rubric registry (every stage judges with the active version of its catalog), and the
 * corrections as the few-shot source (labels from the review store, their content from the traces
 * beside the checkpoints; nothing is read until a stage uses them).
 */
function deskEvaluation(
  options: ReviewDeskOptions,
  store: ReviewStore,
  checkpointer: Checkpointer,
  rubrics: RubricRegistry,
): ProposalRuntimeOptions["graph"] {
  const graph = options.graph ?? {};
  const evaluation = {
    ...graph.evaluation,
    rubricRegistry: graph.evaluation?.rubricRegistry ?? rubrics,
  };
  const traces = traceStoreOfSaver(checkpointer.saver);
  if (evaluation.fewShot === undefined && traces !== undefined) {
    const enabled = options.fewShot === true ? true : "catalog";
    evaluation.fewShot = { source: storeExampleSource(store, traces), enabled };
  }
  return { ...graph, evaluation };
}

/** Opens the store and the checkpoints in one database, compiles the graph, makes the queue. */
async function openDeskContext(options: ReviewDeskOptions): Promise<DeskContext> {
  const location = databaseLocation(options);
  const env = options.env ?? process.env;
  const database =
    location.kind === "postgres" ? { databaseUrl: location.url } : { sqlitePath: location.path };
  const checkpointer = await createCheckpointer({ ...database, env });
  const opened: Array<{ close(): Promise<void> }> = [checkpointer];
  let store: ReviewStore;
  let rubrics: RubricRegistry;
  try {
    store = await openReviewStore(database);
    opened.unshift(store);
    rubrics = await RubricRegistry.open(database);
  } catch (error) {
    for (const part of opened) await part.close();
    throw error;
  }
  const model =
    typeof options.model === "string" ? createChatModel(options.model, { env }) : options.model;
  const { model: _spec, fewShot: _examples, ...given } = options;
  const runtime = compileProposalGraph(checkpointer.saver, {
    ...given,
    graph: deskEvaluation(options, store, checkpointer, rubrics),
    ...(model === undefined ? {} : { model }),
  });
  const onError = options.onJobError ?? reportJobError;
  const concurrency = options.jobs?.concurrency ?? 2;
  const queue: JobQueue =
    location.kind === "postgres"
      ? new PgBossJobQueue(location.url, { concurrency, onError: (e) => onError(undefined, e) })
      : new InProcessJobQueue({ concurrency, onError });
  return {
    kind: location.kind,
    store,
    rubrics,
    checkpointer,
    runtime,
    runner: createThreadRunner(store, runtime),
    queue,
    onError,
    maxRevisions: options.maxRevisions,
  };
}

/** A periodic recovery sweep (PostgreSQL), stopped by `stop()`, which waits for a running one. */
function startSweep(ctx: DeskContext, every: number) {
  let sweeping: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    sweeping = sweeping
      .then(() => recoverThreads(ctx, every))
      .catch((error: unknown) => ctx.onError(undefined, error));
  }, every);
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}

/** Starts the queue; when this process runs jobs, also recovers threads left with work. */
async function startJobs(ctx: DeskContext, options: ReviewDeskOptions) {
  if (!(options.jobs?.run ?? true)) {
    await ctx.queue.start();
    return undefined;
  }
  await ctx.queue.start(async (threadId) =>
    (await ctx.runner.advance(threadId)) === "busy" ? "busy" : "done",
  );
  // SQLite: this process is the only one running jobs, so whatever is left was interrupted.
  if (ctx.kind === "sqlite") {
    await recoverThreads(ctx, -1000);
    return undefined;
  }
  return startSweep(ctx, options.jobs?.recoveryIntervalMs ?? 10_000);
}

/**
 * Opens the review desk: the store and checkpoints in one database, the graph, the job queue.
 * @example
 * const desk = await createReviewDesk({ sqlitePath: ".evalgate/checkpoints.sqlite" });
 */
export async function createReviewDesk(options: ReviewDeskOptions = {}): Promise<ReviewDeskHandle> {
  const ctx = await openDeskContext(options);
  const sweep = await startJobs(ctx, options);
  const { kind, location } = ctx.checkpointer;
  // SQLite's log is copied into the database by a worker, not inside a request's commit.
  const wal =
    kind === "sqlite" && location !== ":memory:" ? startWalCheckpoints(location) : undefined;
  if (wal !== undefined) {
    // Both connections to the file: the checkpoints' and the review store's.
    deferAutoCheckpoint((ctx.checkpointer.saver as { db?: unknown }).db);
    deferAutoCheckpoint(ctx.store.sqliteConnection());
  }
  return {
    store: ctx.store,
    stages: ctx.runtime.stages,
    threadSnapshot: (threadId) => checkedSnapshot(ctx, threadId),
    advanceThread: (threadId) => ctx.runner.advance(threadId),
    authenticate: (token) => authenticate(ctx, token),
    openSession: (token, expiresAt) => openSession(ctx.store, token, expiresAt),
    sessionReviewer: (sessionId) => sessionReviewer(ctx.store, sessionId),
    endSession: (sessionId) => endSession(ctx.store, sessionId),
    startProposal: (input, by) => startProposal(ctx, input, by),
    assignReviewer: (threadId, name, by) => assignReviewer(ctx, threadId, name, by),
    listReviews: (by, page) => listReviews(ctx, by, page),
    finishedProposals: (by, page) => finishedProposals(ctx, by, page),
    getReview: (threadId, by) => getReview(ctx, threadId, by),
    decide: (threadId, request, by) => decide(ctx, threadId, request, by),
    threadStatus: (threadId, by) => threadStatus(ctx, threadId, by),
    threadTraces: (threadId, by) => threadTraces(ctx, threadId, by),
    threadProposal: (threadId, by) => threadProposal(ctx, threadId, by),
    retryThread: (threadId, by) => retryThread(ctx, threadId, by),
    events: (threadId, by, afterSeq) => threadEvents(ctx, threadId, by, afterSeq),
    calibration: (by, days) => calibrationOverview(ctx, by, days),
    countAttempt: (key, windowSeconds) => ctx.store.countAttempt(key, windowSeconds, new Date()),
    attemptsOf: (key) => ctx.store.attemptsOf(key, new Date()),
    ready: () => ctx.store.ping(),
    async close() {
      await sweep?.stop();
      await ctx.queue.stop();
      await wal?.stop();
      await ctx.store.close();
      await ctx.rubrics?.close();
      await ctx.checkpointer.close();
    },
  };
}
