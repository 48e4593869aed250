/**
 * Durable thread jobs on PostgreSQL with pg-boss: a busy thread fails the attempt and is retried; a
 * dead replica's job is retried on expiry (or sooner by the desk's recovery sweep). The workers are
 * own loops over fetch/complete/fail, each awaited: pg-boss's `work()` leaves them unawaited, and one
 * rejected while PostgreSQL restarts would end the process.
 */
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
  private stopping = false;
  private readonly wakeUps = new Set<() => void>();

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
    this.stopping = false;
    const concurrency = Math.max(1, this.options.concurrency ?? 2);
    for (let i = 0; i < concurrency; i++) this.loops.push(this.workLoop(work));
  }

  /** Takes one job at a time until stopped; an empty or failed fetch waits for the next poll. */
  private async workLoop(work: ThreadJob): Promise<void> {
    const pollMs = (this.options.pollingIntervalSeconds ?? 1) * 1000;
    while (!this.stopping) {
      let ran = false;
      try {
        ran = await this.runOne(work);
      } catch (error) {
        this.options.onError?.(error);
      }
      if (!ran && !this.stopping) await this.sleep(pollMs);
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

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeUps.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeUps.add(wake);
    });
  }

  async enqueue(threadId: string): Promise<void> {
    await this.boss.send(THREAD_JOB_QUEUE, { threadId });
  }

  async stop(): Promise<void> {
    // Stops fetching, waits for the running jobs, then closes pg-boss and its pool.
    this.stopping = true;
    for (const wake of [...this.wakeUps]) wake();
    await Promise.all(this.loops.splice(0));
    await this.boss.stop({ graceful: true, wait: true, timeout: 60_000 });
  }
}
