/**
 * Runs actions on the same key one after another (the next starts when the previous settled), so
 * two decisions for one thread cannot both resume the same interrupt from this process (see
 * ThreadLocks for the lock across processes).
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, action: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(action);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

/** The first wait before asking for a busy thread's lock again, and the longest one. */
const FIRST_WAIT_MS = 20;
const LONGEST_WAIT_MS = 250;

/** What a thread's cross-process lock is taken from (the review store beside the checkpoints). */
export interface ThreadLeaseSource {
  tryLockThread(threadId: string): Promise<{ release(): Promise<void> } | undefined>;
}

/**
 * Runs actions on a thread one at a time across processes: in this process in turn (KeyedLock),
 * and under the store's thread lock (a row on SQLite, an advisory lock on PostgreSQL) that every
 * orchestrator and review desk on the same database takes. A busy lock is asked for again after
 * a short wait, growing to LONGEST_WAIT_MS; a lock whose process died is taken over by the store.
 */
export class ThreadLocks {
  private readonly local = new KeyedLock();
  private readonly source: () => Promise<ThreadLeaseSource>;

  constructor(source: () => Promise<ThreadLeaseSource>) {
    this.source = source;
  }

  run<T>(threadId: string, action: () => Promise<T>): Promise<T> {
    return this.local.run(threadId, async () => {
      const store = await this.source();
      let wait = FIRST_WAIT_MS;
      let lease = await store.tryLockThread(threadId);
      while (lease === undefined) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, LONGEST_WAIT_MS);
        lease = await store.tryLockThread(threadId);
      }
      try {
        return await action();
      } finally {
        await lease.release();
      }
    });
  }
}
