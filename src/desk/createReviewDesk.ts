/** The review desk on one database: SQLite (one process) or PostgreSQL (replicas, pg-boss jobs). */
import type { StateSnapshot } from "@langchain/langgraph";
import { storeExampleSource } from "../calibration/fewShot.js";
import { sinksOfSaver } from "../graph/runSinks.js";
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
import { type DeskContext, recoverThreads } from "./actions.js";
import {
  afterStopOf,
  compileProposalGraph,
  type ProposalRuntimeOptions,
} from "./proposalRuntime.js";
import { type ReviewDesk, reviewDesk } from "./reviewDesk.js";

export interface ReviewDeskOptions extends Omit<ProposalRuntimeOptions, "model" | "afterStop"> {
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
  /**
   * With `stopping` and no jobs run here: the command that goes on with a thread whose run the stop
   * cut short, said in its `stopped` event.
   */
  goOnWith?: (threadId: string) => string;
  /** Where job errors go (default: stderr). */
  onJobError?: (threadId: string | undefined, error: unknown) => void;
}

/** The desk, plus what the CLI uses of it: the store, and advancing a thread in this process. */
export interface ReviewDeskHandle extends ReviewDesk {
  readonly store: ReviewStore;
  readonly stages: readonly StageDefinition[];
  /** The thread's checkpointed state (CHECKPOINT_NOT_FOUND without one, THREAD_FOREIGN for another graph's). */
  threadSnapshot(threadId: string): Promise<StateSnapshot>;
  /** Advances the thread here and now (the CLI's `review` and `run`); `busy` when it runs elsewhere. */
  advanceThread(threadId: string): Promise<AdvanceOutcome>;
}

function reportJobError(threadId: string | undefined, error: unknown): void {
  const what = threadId === undefined ? "job queue" : `thread ${threadId}`;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(terminalSafe(`evalgate: ${what}: ${message}\n`));
}

/** Unless the caller gave its own: the database's rubric registry and its corrections as few-shot source. */
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
  const traces = sinksOfSaver(checkpointer.saver).traces;
  if (evaluation.fewShot === undefined && traces !== undefined) {
    const enabled = options.fewShot === true ? true : "catalog";
    evaluation.fewShot = { source: storeExampleSource(store, traces), enabled };
  }
  return { ...graph, evaluation };
}

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
  const { model: _spec, fewShot: _examples, goOnWith, ...given } = options;
  const runsJobs = options.jobs?.run ?? true;
  const runtime = compileProposalGraph(checkpointer.saver, {
    ...given,
    afterStop: afterStopOf({ stopping: options.stopping, runsJobs, kind: location.kind, goOnWith }),
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

/** A periodic recovery sweep (PostgreSQL); `stop()` waits for a running one. */
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
  const close = async () => {
    await sweep?.stop();
    await ctx.queue.stop();
    await wal?.stop();
    await ctx.store.close();
    await ctx.rubrics?.close();
    await ctx.checkpointer.close();
  };
  return {
    ...reviewDesk(ctx, close),
    store: ctx.store,
    stages: ctx.runtime.stages,
    threadSnapshot: (threadId) => checkedSnapshot(ctx, threadId),
    advanceThread: (threadId) => ctx.runner.advance(threadId),
  };
}
