/**
 * Durable thread jobs on PostgreSQL with pg-boss: a job survives the replica that sent it; a busy
 * thread (its lock held by another replica) fails the attempt and is retried a second later; a job
 * whose replica died stays active until it expires — the desk's recovery sweep runs such threads
 * sooner, since the dead replica's thread lock went with its connection.
 */
import PgBoss from "pg-boss";
import { EvalgateError } from "../../errors.js";
import type { JobQueue, ThreadJob } from "./jobQueue.js";

export const THREAD_JOB_QUEUE = "evalgate-advance-thread";

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
  private readonly workers: string[] = [];

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
    const concurrency = Math.max(1, this.options.concurrency ?? 2);
    for (let i = 0; i < concurrency; i++) {
      const id = await this.boss.work<{ threadId: string }>(
        THREAD_JOB_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1 },
        async ([job]) => {
          if (job === undefined) return;
          if ((await work(job.data.threadId)) === "busy") {
            throw threadBusy(job.data.threadId);
          }
        },
      );
      this.workers.push(id);
    }
  }

  async enqueue(threadId: string): Promise<void> {
    await this.boss.send(THREAD_JOB_QUEUE, { threadId });
  }

  async stop(): Promise<void> {
    // Stops fetching, waits for the running jobs (up to the timeout), then closes the pool.
    await this.boss.stop({ graceful: true, wait: true, timeout: 60_000 });
  }
}
