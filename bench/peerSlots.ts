/**
 * The slots of a modelled local LLM server with a per-slot prompt cache, as llama.cpp (and Ollama
 * on it) keeps one: each slot remembers the tokens of the last request it served (prompt and
 * answer), and a new prompt that starts with the same tokens pays prefill only for the rest.
 *
 * - At most `count` requests are served at once; the others wait in arrival order (FIFO).
 * - A request is given the idle slot whose cache shares the longest prefix with its prompt
 *   (llama.cpp's choice); with no shared prefix anywhere, the slot idle the longest.
 * - The last prompt token is always evaluated (the server needs its logits), so a prompt equal to
 *   the cache still pays one token.
 *
 * Service time = fixedMs + perPromptTokenMs × tokens paid + perOutputTokenMs × output tokens.
 * Benchmark infrastructure, not a test double for the project's tests.
 */

/** How long a request takes on the modelled server. */
export interface PrefixLatency {
  fixedMs: number;
  perPromptTokenMs: number;
  perOutputTokenMs: number;
}

/** What a slot decided for one request, before it is served. */
export interface SlotGrant {
  slot: number;
  /** Prompt tokens found in the slot's cache (at most prompt − 1). */
  cachedTokens: number;
  /** Prompt tokens evaluated: prompt − cached. */
  prefillTokens: number;
  /** When the slot started serving it (ms on the caller's clock). */
  startMs: number;
  queueWaitMs: number;
}

interface Slot {
  index: number;
  busy: boolean;
  /** The tokens of the last request served: its prompt, then its answer. */
  cache: readonly number[];
  /** When it last became idle (for the least-recently-used fallback). */
  idleSinceMs: number;
}

interface Waiter {
  prompt: readonly number[];
  enqueuedMs: number;
  grant: (grant: SlotGrant) => void;
}

/** The slot count is not a positive whole number. */
export class PrefixSlotCountError extends RangeError {
  constructor(readonly count: number) {
    super(`prefix slots: the count must be a whole number ≥ 1, got ${count}`);
    this.name = "PrefixSlotCountError";
  }
}

/** The length of the common prefix of two token arrays. */
export function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const end = Math.min(a.length, b.length);
  let at = 0;
  while (at < end && a[at] === b[at]) at += 1;
  return at;
}

/** Service time of one request on `latency`. */
export function prefixServiceMs(
  latency: PrefixLatency,
  prefillTokens: number,
  outputTokens: number,
): number {
  return (
    latency.fixedMs +
    prefillTokens * latency.perPromptTokenMs +
    outputTokens * latency.perOutputTokenMs
  );
}

export class PrefixSlots {
  private readonly slots: Slot[];
  private readonly queue: Waiter[] = [];
  /** The most requests ever served at once. */
  maxBusy = 0;

  constructor(
    readonly count: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!Number.isInteger(count) || count < 1) throw new PrefixSlotCountError(count);
    this.slots = Array.from({ length: count }, (_, index) => ({
      index,
      busy: false,
      cache: [],
      idleSinceMs: 0,
    }));
  }

  get busy(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves when a slot serves `prompt`; call `release(slot, served)` when it is done. */
  acquire(prompt: readonly number[]): Promise<SlotGrant> {
    return new Promise((grant) => {
      this.queue.push({ prompt, enqueuedMs: this.now(), grant });
      this.dispatch();
    });
  }

  /** Frees the slot, remembering the tokens it served (prompt then answer), and serves the queue. */
  release(slot: number, served: readonly number[]): void {
    const held = this.slots[slot];
    if (held === undefined || !held.busy) return;
    held.busy = false;
    held.cache = served;
    held.idleSinceMs = this.now();
    this.dispatch();
  }

  /** Forgets every slot's cache (between benchmark runs). */
  clear(): void {
    for (const slot of this.slots) {
      slot.cache = [];
      slot.idleSinceMs = 0;
    }
    this.maxBusy = 0;
  }

  /** The idle slot for `prompt`: the longest shared prefix, else the one idle the longest. */
  private choose(prompt: readonly number[]): { slot: Slot; shared: number } | undefined {
    let best: { slot: Slot; shared: number } | undefined;
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const shared = commonPrefix(slot.cache, prompt);
      const better =
        best === undefined ||
        shared > best.shared ||
        (shared === best.shared && slot.idleSinceMs < best.slot.idleSinceMs);
      if (better) best = { slot, shared };
    }
    return best;
  }

  private dispatch(): void {
    for (;;) {
      const waiter = this.queue[0];
      if (waiter === undefined) return;
      const chosen = this.choose(waiter.prompt);
      if (chosen === undefined) return;
      this.queue.shift();
      chosen.slot.busy = true;
      this.maxBusy = Math.max(this.maxBusy, this.busy);
      const cachedTokens = Math.max(0, Math.min(chosen.shared, waiter.prompt.length - 1));
      const startMs = this.now();
      waiter.grant({
        slot: chosen.slot.index,
        cachedTokens,
        prefillTokens: waiter.prompt.length - cachedTokens,
        startMs,
        queueWaitMs: startMs - waiter.enqueuedMs,
      });
    }
  }
}
