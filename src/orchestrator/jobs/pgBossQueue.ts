/**
 * Durable thread jobs on PostgreSQL with pg-boss: a busy thread fails the attempt and is retried; a
 * dead replica's job is retried on expiry (or sooner by the desk's recovery sweep). The workers are
 * own loops over fetch/complete/fail, each awaited: pg-boss's `work()` leaves them unawaited, and one
 * rejected while PostgreSQL restarts would end the process.
 */
import { setTimeout as sleep } from "node:timers/promises";
import PgBoss from "pg-boss";
import { EvalgateError } from "../../errors.js";
import type { JobQueue, ThreadJob } from "./jobQueue.js";

const THREAD_JOB_QUEUE = "evalgate-advance-thread";

export interface PgBossQueueOptions {
  /** Jobs one replica runs at once. Default 2. */
  concurrency?: number;
  /** How often an idle worker looks for jobs. Default 1 s. */
  pollingIntervalSeconds?: number;
  /** When an active job whose replica died is given up and retried. Default 15 min. */
  expireInSeconds?: number;
  onError?: (error: unknown) => void;
}

/** Thrown inside a job only (code THREAD_BUSY): pg-boss retries the job later. */
function threadBusy(threadId: string): EvalgateError {
  return new EvalgateError("THREAD_BUSY", `thread ${threadId} is being advanced elsewhere`);
}

export class PgBossJobQueue implements JobQueue {
  private readonly boss: PgBoss;
  private readonly loops: Promise<void>[] = [];
  /** Aborted by stop: the loops end, an idle one at once. */
  private halted = new AbortController();

  constructor(
    connectionString: string,
    private readonly options: PgBossQueueOptions = {},
  ) {
    this.boss = new PgBoss({ connectionString, schedule: false, supervise: true, max: 4 });
    this.boss.on("error", (error: unknown) => options.onError?.(error));
  }

  async start(work?: ThreadJob): Promise<void> {
    await this.boss.start();
    await this.boss.createQueue(THREAD_JOB_QUEUE, {
      name: THREAD_JOB_QUEUE,
      policy: "standard",
      retryLimit: 600,
      retryDelay: 1,
      expireInSeconds: this.options.expireInSeconds ?? 15 * 60,
    });
    if (work === undefined) return;
    this.halted = new AbortController();
    const concurrency = Math.max(1, this.options.concurrency ?? 2);
    for (let i = 0; i < concurrency; i++) this.loops.push(this.workLoop(work));
  }

  /** Takes one job at a time until stopped; an empty or failed fetch waits for the next poll. */
  private async workLoop(work: ThreadJob): Promise<void> {
    const pollMs = (this.options.pollingIntervalSeconds ?? 1) * 1000;
    const { signal } = this.halted;
    while (!signal.aborted) {
      let ran = false;
      try {
        ran = await this.runOne(work);
      } catch (error) {
        this.options.onError?.(error);
      }
      if (!ran) await sleep(pollMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /** Runs the next job, if there is one; completes it, or fails it for a retry. */
  private async runOne(work: ThreadJob): Promise<boolean> {
    const [job] = await this.boss.fetch<{ threadId: string }>(THREAD_JOB_QUEUE, { batchSize: 1 });
    if (job === undefined) return false;
    let outcome: unknown;
    try {
      outcome = await work(job.data.threadId);
    } catch (error) {
      outcome = error;
    }
    if (outcome === "done") await this.boss.complete(THREAD_JOB_QUEUE, job.id);
    else {
      const reason = outcome === "busy" ? threadBusy(job.data.threadId) : outcome;
      const message = reason instanceof Error ? reason.message : String(reason);
      await this.boss.fail(THREAD_JOB_QUEUE, job.id, { message });
    }
    return true;
  }

  async enqueue(threadId: string): Promise<void> {
    await this.boss.send(THREAD_JOB_QUEUE, { threadId });
  }

  async stop(): Promise<void> {
    // Stops fetching, waits for the running jobs, then closes pg-boss and its pool.
    this.halted.abort();
    await Promise.all(this.loops.splice(0));
    await this.boss.stop({ graceful: true, wait: true, timeout: 60_000 });
  }
}
