/**
 * A reviewer's decision and a second run's settlement of the same thread at the same moment, on
 * a real PostgreSQL (and on SQLite), from two connections: the settlement of a run that found the
 * review already pending (a retried job, the recovery sweep) races the decision many times over.
 * Every decision on the pending review is accepted (never refused as not pending), neither side
 * ever fails (no deadlock reaches the caller), and a decided review is never put back in the queue.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import { PostgresReviewStore, SqliteReviewStore } from "../../src/store/reviewStore.js";
import type { PendingRow } from "../../src/store/types.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";

const THREADS = 8;
const ROUNDS = 40;

function pendingRow(threadId: string, interruptId: string): PendingRow {
  return {
    threadId,
    interruptId,
    stage: "research",
    title: threadId,
    overallScore: 0.75,
    passed: true,
    actions: ["approve", "revise", "edit"],
    createdAt: new Date().toISOString(),
    type: "evaluation_review",
    verdict: "borderline",
  };
}

function waitingAt(threadId: string, interruptId: string) {
  return {
    status: "waiting" as const,
    pending: [pendingRow(threadId, interruptId)],
    applied: [],
    events: [{ type: "review_ready" as const, stage: "research", message: interruptId }],
  };
}

function decisionOn(threadId: string, interruptId: string) {
  return {
    id: `${threadId}-${interruptId}`,
    threadId,
    interruptId,
    stage: "research",
    reviewer: "ana",
    action: "approve" as const,
    payload: {},
    decidedAt: new Date().toISOString(),
  };
}

interface Tally {
  recorded: number;
  refused: string[];
  errors: string[];
  listedAfterDecision: string[];
}

/** One thread: each round pauses it at a new review, then decides it while a re-settle runs. */
async function raceOneThread(deciding: ReviewStore, settling: ReviewStore, threadId: string) {
  const tally: Tally = { recorded: 0, refused: [], errors: [], listedAfterDecision: [] };
  await settling.createThread(
    { id: threadId, title: threadId, creator: "ana", status: "queued", settings: {} },
    { type: "queued" },
  );
  for (let round = 0; round < ROUNDS; round++) {
    const interruptId = `i${round}`;
    await settling.settleThread(threadId, waitingAt(threadId, interruptId));
    const [decided, settled] = await Promise.allSettled([
      deciding.recordDecision(decisionOn(threadId, interruptId)),
      settling.settleThread(threadId, waitingAt(threadId, interruptId)),
    ]);
    if (decided.status === "rejected") tally.errors.push(String(decided.reason));
    else if (decided.value.kind === "recorded") tally.recorded++;
    else tally.refused.push(`${interruptId}: ${decided.value.kind}`);
    if (settled.status === "rejected") tally.errors.push(String(settled.reason));
    const listed = await deciding.pendingOf(threadId);
    if (listed.some((row) => row.interruptId === interruptId)) {
      tally.listedAfterDecision.push(interruptId);
    }
  }
  return tally;
}

function describeOn(
  name: string,
  open: () => Promise<[ReviewStore, ReviewStore, () => Promise<void>]>,
) {
  describe(`a decision beside a re-settle, ${name}`, () => {
    let deciding: ReviewStore;
    let settling: ReviewStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      [deciding, settling, close] = await open();
    }, 300_000);
    afterAll(async () => close?.(), 60_000);

    it("accepts every decision on the pending review, fails nothing and never lists it again", async () => {
      const tallies = await Promise.all(
        Array.from({ length: THREADS }, (_, i) =>
          raceOneThread(deciding, settling, `race-${i}-${Date.now()}`),
        ),
      );
      const all = {
        recorded: tallies.reduce((n, t) => n + t.recorded, 0),
        refused: tallies.flatMap((t) => t.refused),
        errors: tallies.flatMap((t) => t.errors),
        listedAfterDecision: tallies.flatMap((t) => t.listedAfterDecision),
      };
      expect(all).toEqual({
        recorded: THREADS * ROUNDS,
        refused: [],
        errors: [],
        listedAfterDecision: [],
      });
    }, 300_000);

    it("says what a settlement came to: settled, unchanged, or a decision to apply first", async () => {
      const threadId = `outcomes-${Date.now()}`;
      await settling.createThread(
        { id: threadId, title: threadId, creator: "ana", status: "queued", settings: {} },
        { type: "queued" },
      );
      expect(await settling.settleThread(threadId, waitingAt(threadId, "a"))).toBe("settled");
      expect(await settling.settleThread(threadId, waitingAt(threadId, "a"))).toBe("unchanged");
      const events = await deciding.eventsAfter(threadId, 0, 50);
      expect(events.filter((e) => e.type === "review_ready")).toHaveLength(1);
      await deciding.recordDecision(decisionOn(threadId, "a"));
      expect(await settling.settleThread(threadId, waitingAt(threadId, "a"))).toBe("decided");
      expect(await deciding.pendingOf(threadId)).toEqual([]);
      expect((await deciding.thread(threadId))?.status).toBe("queued");
      // Applied, the run settles at the next review.
      const next = { ...waitingAt(threadId, "b"), applied: [`${threadId}-a`] };
      expect(await settling.settleThread(threadId, next)).toBe("settled");
      expect((await deciding.pendingOf(threadId)).map((p) => p.interruptId)).toEqual(["b"]);
      expect(await deciding.unappliedDecisions(threadId)).toEqual([]);
    });
  });
}

describeOn("on PostgreSQL", async () => {
  const cluster: PostgresCluster = await startPostgres();
  const one = await PostgresReviewStore.open(cluster.url);
  const two = await PostgresReviewStore.open(cluster.url);
  return [
    one,
    two,
    async () => {
      await one.close();
      await two.close();
      await cluster.stop();
    },
  ];
});

describeOn("on SQLite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "evalgate-race-"));
  const path = join(dir, "store.sqlite");
  const one = await SqliteReviewStore.open(path);
  const two = await SqliteReviewStore.open(path);
  return [
    one,
    two,
    async () => {
      await one.close();
      await two.close();
      rmSync(dir, { recursive: true, force: true });
    },
  ];
});
