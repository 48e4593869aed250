/**
 * A ceiling on calls in flight with fair queueing: each caller queues in a lane (one evaluation);
 * when a slot frees the lanes take turns, so fifty queued calls cannot starve a later two.
 */

/** Who a call is queued for: calls of one lane are served in order, lanes take turns. */
export interface CallLane {
  readonly name: string;
}

export function createCallLane(name = "lane"): CallLane {
  return { name };
}

export type ReleaseSlot = () => void;

export interface SlotWait {
  /** The caller's cancellation: the waiter leaves the queue and the wait rejects. */
  signal?: AbortSignal;
  /** The longest wait for a slot; then the wait rejects with `onWaitTooLong()`. */
  maxWaitMs?: number;
  /** The error for a cancelled wait (default: the signal's reason). */
  onAbort?: (reason: unknown) => unknown;
  onWaitTooLong?: (waitedMs: number, ahead: number) => unknown;
}

interface Waiter {
  lane: CallLane;
  grant: (release: ReleaseSlot) => void;
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`a call ceiling must be a whole number of at least 1, got ${limit}`);
  }
  return limit;
}

export class FairCallCeiling {
  #limit: number;
  #inFlight = 0;
  /** Lanes with waiters, in turn order (a Map keeps insertion order; a served lane moves last). */
  readonly #lanes = new Map<CallLane, Waiter[]>();
  #queued = 0;
  readonly #onIdle: (() => void) | undefined;

  constructor(limit: number, onIdle?: () => void) {
    this.#limit = checkLimit(limit);
    this.#onIdle = onIdle;
  }

  get limit(): number {
    return this.#limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get queued(): number {
    return this.#queued;
  }

  /** Changes the ceiling: a higher one lets waiters in now; a lower one lets running calls end. */
  setLimit(limit: number): void {
    this.#limit = checkLimit(limit);
    this.dispatch();
  }

  acquire(lane: CallLane, wait: SlotWait = {}): Promise<ReleaseSlot> {
    return acquireAny([this], lane, wait).then((slot) => slot.release);
  }

  tryTake(): ReleaseSlot | undefined {
    return this.#queued === 0 && this.#inFlight < this.#limit ? this.take() : undefined;
  }

  /**
   * Queues a waiter in `lane`; `grant` is called once (possibly before join returns) with the slot.
   * Returns the function that takes the waiter out of the queue.
   */
  join(lane: CallLane, grant: (release: ReleaseSlot) => void): () => void {
    const waiter: Waiter = { lane, grant };
    const queue = this.#lanes.get(lane);
    if (queue === undefined) this.#lanes.set(lane, [waiter]);
    else queue.push(waiter);
    this.#queued += 1;
    this.dispatch();
    return () => this.remove(waiter);
  }

  async run<T>(lane: CallLane, wait: SlotWait, task: () => Promise<T>): Promise<T> {
    const release = await this.acquire(lane, wait);
    try {
      return await task();
    } finally {
      release();
    }
  }

  private take(): ReleaseSlot {
    this.#inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= 1;
      this.dispatch();
    };
  }

  private remove(waiter: Waiter): void {
    const queue = this.#lanes.get(waiter.lane);
    const at = queue?.indexOf(waiter) ?? -1;
    if (queue === undefined || at === -1) return;
    queue.splice(at, 1);
    this.#queued -= 1;
    if (queue.length === 0) this.#lanes.delete(waiter.lane);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.#inFlight < this.#limit) {
      const next = this.#lanes.entries().next();
      if (next.done === true) break;
      const [lane, queue] = next.value;
      const waiter = queue.shift();
      this.#lanes.delete(lane);
      if (waiter === undefined) continue;
      if (queue.length > 0) this.#lanes.set(lane, queue);
      this.#queued -= 1;
      waiter.grant(this.take());
    }
    if (this.#inFlight === 0 && this.#queued === 0) this.#onIdle?.();
  }
}

function abortError(wait: SlotWait, reason: unknown): unknown {
  return wait.onAbort ? wait.onAbort(reason) : reason;
}

type AnySlot = { index: number; release: ReleaseSlot };

/** The first slot any of `ceilings` grants: a free one at once (in `order`), else a waiter in each. */
export function acquireAny(
  ceilings: readonly FairCallCeiling[],
  lane: CallLane,
  wait: SlotWait = {},
  order: readonly number[] = ceilings.map((_, i) => i),
): Promise<AnySlot> {
  const { signal } = wait;
  if (signal?.aborted) return Promise.reject(abortError(wait, signal.reason));
  for (const index of order) {
    const release = ceilings[index]?.tryTake();
    if (release !== undefined) return Promise.resolve({ index, release });
  }
  return new Promise<AnySlot>((resolve, reject) => {
    const started = Date.now();
    const ahead = ceilings.reduce((sum, c) => sum + c.queued, 0);
    const leaves: Array<() => void> = [];
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      for (const leave of leaves) leave();
    };
    const onAbort = () => {
      if (done) return;
      finish();
      reject(abortError(wait, signal?.reason));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    if (wait.maxWaitMs !== undefined) {
      timer = setTimeout(() => {
        if (done) return;
        finish();
        reject(wait.onWaitTooLong?.(Date.now() - started, ahead) ?? new Error("no free slot"));
      }, wait.maxWaitMs);
      timer.unref?.();
    }
    for (const index of order) {
      if (done) break;
      const ceiling = ceilings[index];
      if (ceiling === undefined) continue;
      leaves.push(
        ceiling.join(lane, (release) => {
          if (done) {
            release();
            return;
          }
          finish();
          resolve({ index, release });
        }),
      );
    }
  });
}
