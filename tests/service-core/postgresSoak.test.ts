/**
 * The soak: two `evalgate serve` replicas (real processes) on one PostgreSQL of the test's own,
 * slow stages (the model stand-in answers each call after a pause), bursts of new proposals and
 * deciders whose every request goes to the next replica in turn, until 2,000 decisions were
 * accepted; PostgreSQL is restarted mid-run, once with `pg_ctl restart -m fast` and once by
 * killing its postmaster (SIGKILL) and starting it again. Counted, never timed: no answer 5xx but
 * 503 with Retry-After (STORE_UNAVAILABLE) while the database is down, no pending review refused,
 * no decided review listed, no thread failed, both replicas alive, and every accepted
 * decision applied exactly once (its stage approved once, in order).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReviewStore } from "../../src/store/index.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { crashAndStart, restartFast, startOwnCluster } from "./clusterRestarts.js";
import { addReviewer, eventually } from "./helpers.js";
import type { RunningCluster } from "./postgresCluster.js";
import { type ServeProcess, startServe } from "./serveProcess.js";
import { decideThread, newTally, QueueView, SoakClient, startBurst } from "./soakDriver.js";

const MODEL = "evalgate-soak:test";
const DECISIONS = 2000;
const BURST = 12;
const OPEN_THREADS = 36;

describe("two serve replicas on one PostgreSQL under load, restarted mid-run", () => {
  let cluster: RunningCluster;
  let ollama: OllamaServer;
  let token: string;
  const replicas: ServeProcess[] = [];

  beforeAll(async () => {
    cluster = await startOwnCluster();
    // Decisions and settlements wait for the WAL flush, as on a production server: a crash of
    // the server keeps every decision it acknowledged.
    const store = await openReviewStore({ databaseUrl: cluster.url, env: {} });
    try {
      token = await addReviewer(store, "soak", "admin");
    } finally {
      await store.close();
    }
    const { default: pg } = await import("pg");
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query("ALTER SYSTEM SET synchronous_commit = on");
    await admin.query("SELECT pg_reload_conf()");
    await admin.end();
    ollama = await startOllamaServer({
      models: [MODEL],
      responder: ollamaProposalResponder(0.85),
      behaviour: { delayBeforeFirstByteMs: 15 },
    });
    for (let i = 0; i < 2; i++) {
      replicas.push(
        await startServe({ database: cluster.url, ollamaUrl: ollama.url, model: MODEL }),
      );
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill()));
    await ollama?.close();
    await cluster?.stop();
  }, 120_000);

  it("answers no 5xx but 503 with Retry-After, refuses and relists no review, fails no thread, applies every decision once", async () => {
    const tally = newTally();
    const client = new SoakClient(replicas, token, tally);
    const enough = () => tally.accepted.size >= DECISIONS;
    const restarts: Promise<void>[] = [];
    const restartAt = (share: number, restart: () => Promise<void>) => {
      let done = false;
      return () => {
        if (done || tally.accepted.size < DECISIONS * share) return;
        done = true;
        restarts.push(restart());
      };
    };
    const milestones = [
      restartAt(1 / 3, () => restartFast(cluster)),
      restartAt(2 / 3, () => crashAndStart(cluster)),
    ];
    const view = new QueueView();
    const watcher = view.watch(client, tally, enough);
    const deciding = new Set<Promise<void>>();
    while (!enough()) {
      for (const milestone of milestones) milestone();
      if (deciding.size < OPEN_THREADS) {
        for (const threadId of await startBurst(client, BURST, tally)) {
          const work = decideThread(client, view, threadId, tally, enough).finally(() =>
            deciding.delete(work),
          );
          deciding.add(work);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await Promise.all([...deciding, watcher, ...restarts]);

    // Every accepted decision is applied: its thread's history shows it applied, never refused,
    // and the thread approved exactly as many stages as decisions were accepted on it.
    const misapplied: string[] = [];
    for (const [threadId, interrupts] of tally.byThread) {
      const status = await eventually(
        `the decisions of ${threadId} applied`,
        async () => {
          const reply = await client.call("GET", `/api/threads/${threadId}`);
          const body = reply.body as {
            status: string;
            decisions: Array<{ interruptId: string; appliedAt?: string; refusedAt?: string }>;
            stages: Array<{ status: string }>;
          };
          const applied = body.decisions.filter((d) => d.appliedAt !== undefined);
          return applied.length >= interrupts.length || body.status === "failed" ? body : undefined;
        },
        180_000,
      );
      const recorded = status.decisions.map((d) => d.interruptId);
      const approved = status.stages.filter((s) => s.status === "approved").length;
      if (
        JSON.stringify(recorded) !== JSON.stringify(interrupts) ||
        status.decisions.some((d) => d.refusedAt !== undefined) ||
        approved !== interrupts.length ||
        status.status === "failed"
      ) {
        misapplied.push(`${threadId}: ${JSON.stringify(status)}`);
      }
    }
    const counts = {
      serverErrors: tally.serverErrors.slice(0, 5),
      refusedPending: tally.refusedPending.slice(0, 5),
      listedDecided: tally.listedDecided.slice(0, 5),
      failedThreads: tally.failedThreads.slice(0, 5),
      misapplied: misapplied.slice(0, 3),
      replicasAlive: replicas.map((r) => r.alive()),
    };
    expect(counts).toEqual({
      serverErrors: [],
      refusedPending: [],
      listedDecided: [],
      failedThreads: [],
      misapplied: [],
      replicasAlive: [true, true],
    });
    expect(tally.accepted.size).toBeGreaterThanOrEqual(DECISIONS);
    // The restarts were met: requests in their window were answered 503 (counted above).
    expect(tally.unavailable).toBeGreaterThan(0);
    process.stdout.write(
      `soak: ${tally.accepted.size} decisions accepted on ${tally.byThread.size} threads ` +
        `(${tally.started} started); answers ${JSON.stringify(Object.fromEntries(tally.statuses))}, ` +
        `${tally.unavailable} × 503 while PostgreSQL restarted\n`,
    );
  }, 1_500_000);
});
