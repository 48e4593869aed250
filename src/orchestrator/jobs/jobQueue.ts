/** Jobs that advance threads, each under the thread's lock: in process (SQLite) or pg-boss (PostgreSQL). */

/** What running a thread's job came to; `busy` is tried again a little later. */
export type JobOutcome = "busy" | "done";

export type ThreadJob = (threadId: string) => Promise<JobOutcome>;

export interface JobQueue {
  /** Opens the queue; with `work`, this process also takes jobs (without, it only sends). */
  start(work?: ThreadJob): Promise<void>;
  /** Asks for the thread to be advanced; durable once it resolves (pg-boss). */
  enqueue(threadId: string): Promise<void>;
  /** Stops taking jobs and waits for the running ones to finish. */
  stop(): Promise<void>;
}

export interface InProcessQueueOptions {
  /** Jobs run at once (threads are independent). Default 2. */
  concurrency?: number;
  /** Wait before trying a busy thread again. Default 500 ms. */
  busyRetryMs?: number;
  /** Called when a job throws (the thread is left for the recovery at the next start). */
  onError?: (threadId: string, error: unknown) => void;
}

/** The in-process queue of SQLite mode; not durable itself: on start the desk enqueues open threads. */
export class InProcessJobQueue implements JobQueue {
  private readonly waiting: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private work: ThreadJob | undefined;
  private stopped = false;

  constructor(private readonly options: InProcessQueueOptions = {}) {}

  async start(work?: ThreadJob): Promise<void> {
    this.work = work;
    this.stopped = false;
    this.pump();
  }

  async enqueue(threadId: string): Promise<void> {
    if (this.stopped) return;
    if (this.running.has(threadId)) {
      this.again.add(threadId);
      return;
    }
    if (this.queued.has(threadId)) return;
    this.queued.add(threadId);
    this.waiting.push(threadId);
    this.pump();
  }

  private pump(): void {
    const work = this.work;
    if (work === undefined || this.stopped) return;
    const concurrency = Math.max(1, this.options.concurrency ?? 2);
    while (this.running.size < concurrency && this.waiting.length > 0) {
      const threadId = this.waiting.shift() as string;
      this.queued.delete(threadId);
      const job = this.runOne(work, threadId).finally(() => {
        this.running.delete(threadId);
        if (this.again.delete(threadId)) void this.enqueue(threadId);
        this.pump();
      });
      this.running.set(threadId, job);
    }
  }

  private async runOne(work: ThreadJob, threadId: string): Promise<void> {
    try {
      if ((await work(threadId)) === "busy" && !this.stopped) {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          void this.enqueue(threadId);
        }, this.options.busyRetryMs ?? 500);
        this.timers.add(timer);
      }
    } catch (error) {
      this.options.onError?.(threadId, error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.waiting.length = 0;
    this.queued.clear();
    await Promise.all([...this.running.values()]);
  }
}
