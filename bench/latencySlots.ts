/**
 * The server slots of a modelled LLM server: at most `count` requests are served at once; the
 * others wait in arrival order (FIFO), as a local server with N parallel slots queues requests.
 */

/** A request gave up (its AbortSignal fired) while it waited for a slot. */
export class SlotWaitAbortedError extends Error {
  constructor(readonly reason: unknown) {
    super("latency model: the request was aborted while it waited for a server slot");
    this.name = "SlotWaitAbortedError";
  }
}

/** The slot count is not a positive whole number. */
export class SlotCountError extends RangeError {
  constructor(readonly count: number) {
    super(`latency model: slots must be a whole number ≥ 1, got ${count}`);
    this.name = "SlotCountError";
  }
}

interface Waiter {
  grant: () => void;
}

export class ServerSlots {
  private free: number;
  private readonly queue: Waiter[] = [];
  /** The most requests ever served at once. */
  maxBusy = 0;

  constructor(readonly count: number) {
    if (!Number.isInteger(count) || count < 1) throw new SlotCountError(count);
    this.free = count;
  }

  get busy(): number {
    return this.count - this.free;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves when a slot is held; call `release` exactly once when the request is served. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new SlotWaitAbortedError(signal.reason));
    if (this.free > 0 && this.queue.length === 0) {
      this.take();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          this.take();
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        reject(new SlotWaitAbortedError(signal?.reason));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  /** Frees a slot and hands it to the longest-waiting request, if any. */
  release(): void {
    this.free += 1;
    this.queue.shift()?.grant();
  }

  private take(): void {
    this.free -= 1;
    this.maxBusy = Math.max(this.maxBusy, this.busy);
  }
}
