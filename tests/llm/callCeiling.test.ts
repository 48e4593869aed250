/**
 * The fair ceiling on calls in flight, on its own: the limit holds, lanes take turns, a waiter
 * that is cancelled or waits too long leaves the queue, and a changed limit takes effect. Order
 * is read from the sequence of grants, never from a clock.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  acquireAny,
  createCallLane,
  FairCallCeiling,
  type ReleaseSlot,
} from "../../src/llm/callCeiling.js";

/** Queues `count` waiters in a lane; each one's label is pushed to `served` when it is granted. */
function queue(
  ceiling: FairCallCeiling,
  label: string,
  count: number,
  served: string[],
  releases: ReleaseSlot[],
) {
  const lane = createCallLane(label);
  return Array.from({ length: count }, (_, i) =>
    ceiling.acquire(lane).then((release) => {
      served.push(`${label}${i + 1}`);
      releases.push(release);
    }),
  );
}

/** Lets the promise callbacks of granted waiters run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Releases the oldest held slot and lets the next grant land. */
async function releaseOne(releases: ReleaseSlot[]) {
  releases.shift()?.();
  await settle();
}

afterEach(() => {
  vi.useRealTimers();
});

describe("FairCallCeiling", () => {
  it("never grants more slots than its limit, and grants the next one when a slot is given back", async () => {
    const ceiling = new FairCallCeiling(3);
    const served: string[] = [];
    const releases: ReleaseSlot[] = [];
    queue(ceiling, "a", 10, served, releases);
    await settle();
    expect(served).toEqual(["a1", "a2", "a3"]);
    expect(ceiling.inFlight).toBe(3);
    expect(ceiling.queued).toBe(7);
    await releaseOne(releases);
    expect(served).toEqual(["a1", "a2", "a3", "a4"]);
    expect(ceiling.inFlight).toBe(3);
    // Giving back the same slot twice frees it once.
    const release = releases[0];
    release?.();
    release?.();
    await settle();
    expect(ceiling.inFlight).toBe(3);
    expect(served).toHaveLength(5);
  });

  it("serves lanes in turn: a lane that arrives later with two calls is not starved by fifty", async () => {
    const ceiling = new FairCallCeiling(1);
    const served: string[] = [];
    const releases: ReleaseSlot[] = [];
    queue(ceiling, "a", 50, served, releases);
    await settle();
    queue(ceiling, "b", 2, served, releases);
    queue(ceiling, "c", 1, served, releases);
    await settle();
    for (let i = 0; i < 8; i++) await releaseOne(releases);
    // a1 held the slot when b and c arrived; from then on the lanes alternate.
    expect(served).toEqual(["a1", "a2", "b1", "c1", "a3", "b2", "a4", "a5", "a6"]);
  });

  it("keeps the order of calls within a lane", async () => {
    const ceiling = new FairCallCeiling(2);
    const served: string[] = [];
    const releases: ReleaseSlot[] = [];
    queue(ceiling, "a", 6, served, releases);
    await settle();
    for (let i = 0; i < 4; i++) await releaseOne(releases);
    expect(served).toEqual(["a1", "a2", "a3", "a4", "a5", "a6"]);
  });

  it("takes a cancelled waiter out of the queue, with the caller's error", async () => {
    const ceiling = new FairCallCeiling(1);
    const served: string[] = [];
    const releases: ReleaseSlot[] = [];
    queue(ceiling, "a", 1, served, releases);
    await settle();
    const controller = new AbortController();
    const cancelled = ceiling.acquire(createCallLane("b"), {
      signal: controller.signal,
      onAbort: (reason) => new Error(`cancelled: ${String(reason)}`),
    });
    queue(ceiling, "c", 1, served, releases);
    expect(ceiling.queued).toBe(2);
    controller.abort("stop");
    await expect(cancelled).rejects.toThrow("cancelled: stop");
    expect(ceiling.queued).toBe(1);
    await releaseOne(releases);
    expect(served).toEqual(["a1", "c1"]);
  });

  it("refuses at once a waiter whose signal already fired", async () => {
    const ceiling = new FairCallCeiling(1);
    const controller = new AbortController();
    controller.abort("gone");
    await expect(ceiling.acquire(createCallLane(), { signal: controller.signal })).rejects.toBe(
      "gone",
    );
    expect(ceiling.inFlight).toBe(0);
  });

  it("gives up a wait that runs out, naming how many calls were ahead", async () => {
    vi.useFakeTimers();
    const ceiling = new FairCallCeiling(1);
    const held = await ceiling.acquire(createCallLane("a"));
    const other = ceiling.acquire(createCallLane("b"));
    const waiting = ceiling.acquire(createCallLane("c"), {
      maxWaitMs: 1_000,
      onWaitTooLong: (_waited, ahead) => new Error(`no slot, ${ahead} ahead`),
    });
    const outcome = waiting.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await outcome).toEqual(new Error("no slot, 1 ahead"));
    expect(ceiling.queued).toBe(1);
    held();
    (await other)();
    expect(ceiling.inFlight).toBe(0);
  });

  it("lets waiters in when the limit is raised, and lets running calls end when it is lowered", async () => {
    const ceiling = new FairCallCeiling(1);
    const served: string[] = [];
    const releases: ReleaseSlot[] = [];
    queue(ceiling, "a", 5, served, releases);
    await settle();
    ceiling.setLimit(3);
    await settle();
    expect(served).toEqual(["a1", "a2", "a3"]);
    ceiling.setLimit(1);
    await releaseOne(releases);
    await releaseOne(releases);
    expect(served).toEqual(["a1", "a2", "a3"]);
    await releaseOne(releases);
    expect(served).toEqual(["a1", "a2", "a3", "a4"]);
  });

  it("refuses a limit that is not a whole number of at least 1", () => {
    expect(() => new FairCallCeiling(0)).toThrow(RangeError);
    expect(() => new FairCallCeiling(1.5)).toThrow(RangeError);
    expect(() => new FairCallCeiling(2).setLimit(-1)).toThrow(RangeError);
  });
});

describe("acquireAny: a slot of whichever of several ceilings frees first", () => {
  it("takes a free slot at once, in the order given", async () => {
    const [a, b] = [new FairCallCeiling(1), new FairCallCeiling(1)];
    const first = await acquireAny([a, b], createCallLane(), {}, [1, 0]);
    expect(first.index).toBe(1);
    const second = await acquireAny([a, b], createCallLane(), {}, [1, 0]);
    expect(second.index).toBe(0);
    expect([a.inFlight, b.inFlight]).toEqual([1, 1]);
  });

  it("waits in every queue; the first grant wins and the waiter leaves the other queues", async () => {
    const [a, b] = [new FairCallCeiling(1), new FairCallCeiling(1)];
    const heldA = await a.acquire(createCallLane("x"));
    const heldB = await b.acquire(createCallLane("x"));
    const waiting = acquireAny([a, b], createCallLane("pool"));
    await settle();
    expect([a.queued, b.queued]).toEqual([1, 1]);
    heldB();
    const got = await waiting;
    expect(got.index).toBe(1);
    expect([a.queued, b.queued]).toEqual([0, 0]);
    expect(b.inFlight).toBe(1);
    // The slot freed later at a goes to nobody from this wait.
    heldA();
    expect(a.inFlight).toBe(0);
    got.release();
    expect(b.inFlight).toBe(0);
  });

  it("is served in its lane's turn at each ceiling", async () => {
    const ceiling = new FairCallCeiling(1);
    const held = await ceiling.acquire(createCallLane("holder"));
    const order: string[] = [];
    const busy = createCallLane("busy");
    const late = createCallLane("late");
    const served = (label: string) => (release: ReleaseSlot) => {
      order.push(label);
      release();
    };
    const waits = [
      ceiling.acquire(busy).then(served("busy1")),
      ceiling.acquire(busy).then(served("busy2")),
      acquireAny([ceiling], late).then((slot) => served("late")(slot.release)),
    ];
    held();
    await Promise.all(waits);
    expect(order).toEqual(["busy1", "late", "busy2"]);
  });

  it("leaves every queue when its caller cancels", async () => {
    const [a, b] = [new FairCallCeiling(1), new FairCallCeiling(1)];
    await a.acquire(createCallLane());
    await b.acquire(createCallLane());
    const controller = new AbortController();
    const waiting = acquireAny([a, b], createCallLane(), {
      signal: controller.signal,
      onAbort: (reason) => new Error(`cancelled: ${String(reason)}`),
    });
    await settle();
    controller.abort("enough");
    await expect(waiting).rejects.toThrow("cancelled: enough");
    expect([a.queued, b.queued]).toEqual([0, 0]);
  });

  it("gives up a wait that runs out, leaving every queue", async () => {
    vi.useFakeTimers();
    const [a, b] = [new FairCallCeiling(1), new FairCallCeiling(1)];
    await a.acquire(createCallLane());
    await b.acquire(createCallLane());
    const outcome = acquireAny([a, b], createCallLane(), {
      maxWaitMs: 500,
      onWaitTooLong: () => new Error("no slot anywhere"),
    }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(500);
    expect(await outcome).toEqual(new Error("no slot anywhere"));
    expect([a.queued, b.queued]).toEqual([0, 0]);
  });
});
