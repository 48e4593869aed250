/**
 * The load of the soak test (postgresSoak.test.ts): bursts of new proposals, and deciders that each
 * own a set of threads and decide every review of them, every request to the next replica in turn.
 * It counts what came back — never how long anything took: answers by status, reviews refused
 * while pending, reviews listed after their decision was accepted, failed threads.
 */
import { type ApiReply, callApi, errorCode, type ServeProcess } from "./serveProcess.js";

export interface SoakTally {
  accepted: Map<string, { threadId: string; interruptId: string; answeredAt: number }>;
  /** An accepted decision's thread → its interrupts, in order. */
  byThread: Map<string, string[]>;
  statuses: Map<number, number>;
  /** Answers of 5xx other than 503 + Retry-After + STORE_UNAVAILABLE. */
  serverErrors: string[];
  unavailable: number;
  refusedPending: string[];
  listedDecided: string[];
  failedThreads: string[];
  started: number;
}

export function newTally(): SoakTally {
  return {
    accepted: new Map(),
    byThread: new Map(),
    statuses: new Map(),
    serverErrors: [],
    unavailable: 0,
    refusedPending: [],
    listedDecided: [],
    failedThreads: [],
    started: 0,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SoakClient {
  private turn = 0;

  constructor(
    private readonly replicas: readonly ServeProcess[],
    private readonly token: string,
    private readonly tally: SoakTally,
  ) {}

  /** A request to the next replica; 503 (STORE_UNAVAILABLE, Retry-After) is waited out and sent again. */
  async call(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
  ): Promise<ApiReply & { afterUnavailable: boolean }> {
    let afterUnavailable = false;
    for (;;) {
      const replica = this.replicas[this.turn++ % this.replicas.length] as ServeProcess;
      const reply = await callApi(replica.url, this.token, method, path, body).catch(
        (error: unknown) => ({ status: 0, body: String(error), retryAfter: null }) as ApiReply,
      );
      this.tally.statuses.set(reply.status, (this.tally.statuses.get(reply.status) ?? 0) + 1);
      const unavailable =
        reply.status === 503 &&
        reply.retryAfter !== null &&
        errorCode(reply) === "STORE_UNAVAILABLE";
      if (reply.status >= 500 && !unavailable) {
        this.tally.serverErrors.push(
          `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`,
        );
        await pause(200);
        continue;
      }
      if (reply.status === 0) {
        this.tally.serverErrors.push(`${method} ${path}: no answer (${String(reply.body)})`);
        await pause(200);
        continue;
      }
      if (!unavailable) return { ...reply, afterUnavailable };
      afterUnavailable = true;
      this.tally.unavailable++;
      await pause(Math.min(Number(reply.retryAfter) * 1000, 1000));
    }
  }
}

/** Starts `count` proposals at once; their thread ids. */
export async function startBurst(client: SoakClient, count: number, tally: SoakTally) {
  const replies = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      client.call("POST", "/api/proposals", {
        rfp: `Calder Bay Community Foundation — Resilient Neighbourhoods, call ${tally.started + i}.`,
        applicant: "A tenants' union.",
      }),
    ),
  );
  tally.started += count;
  return replies.map((reply) => (reply.body as { threadId: string }).threadId);
}

/**
 * The queue as the last listing showed it (thread → the review it waits on). One watcher lists
 * the queue for every decider (the index only, no checkpoint read: the deciders' polling costs the
 * replicas little); a listed review whose decision was accepted before the list was asked for is
 * counted.
 */
export class QueueView {
  readonly waiting = new Map<string, string>();

  async watch(client: SoakClient, tally: SoakTally, done: () => boolean): Promise<void> {
    while (!done()) {
      const asked = Date.now();
      const listed = await client.call("GET", "/api/reviews?limit=200");
      const items =
        (listed.body as { items?: Array<{ threadId: string; interruptId: string }> }).items ?? [];
      const decidedBefore = new Set(
        [...tally.accepted.values()]
          .filter((a) => a.answeredAt < asked)
          .map((a) => `${a.threadId}/${a.interruptId}`),
      );
      this.waiting.clear();
      for (const item of items) {
        const key = `${item.threadId}/${item.interruptId}`;
        if (decidedBefore.has(key)) tally.listedDecided.push(key);
        this.waiting.set(item.threadId, item.interruptId);
      }
      await pause(150);
    }
  }
}

/**
 * Decides every review of `threadId` as the queue lists it, until the thread finishes or
 * `enough()` says stop. A review it decided and sees listed again is not decided twice (the
 * watcher counts it); every few seconds without a new review it asks whether the thread finished
 * or failed.
 */
export async function decideThread(
  client: SoakClient,
  view: QueueView,
  threadId: string,
  tally: SoakTally,
  enough: () => boolean,
): Promise<void> {
  const decided = new Set<string>();
  let idle = 0;
  while (!enough()) {
    const interruptId = view.waiting.get(threadId);
    if (interruptId === undefined || decided.has(interruptId)) {
      if (++idle % 20 === 0) {
        const status = await client.call("GET", `/api/threads/${threadId}`);
        const state = status.body as { status?: string; error?: string };
        if (state.status === "finished") return;
        if (state.status === "failed") {
          tally.failedThreads.push(`${threadId}: ${state.error}`);
          return;
        }
      }
      await pause(150);
      continue;
    }
    idle = 0;
    const answer = await client.call("POST", `/api/reviews/${threadId}/decisions`, {
      interruptId,
      action: "approve",
    });
    decided.add(interruptId);
    // A decision sent again after a 503 may find its first sending recorded: ours, not refused.
    const oursBefore = errorCode(answer) === "ALREADY_DECIDED" && answer.afterUnavailable;
    if (answer.status === 202 || oursBefore) {
      const decisionId =
        (answer.body as { decisionId?: string }).decisionId ?? `${threadId}/${interruptId}`;
      tally.accepted.set(decisionId, { threadId, interruptId, answeredAt: Date.now() });
      tally.byThread.set(threadId, [...(tally.byThread.get(threadId) ?? []), interruptId]);
    } else {
      tally.refusedPending.push(
        `${threadId}/${interruptId}: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
  }
}
