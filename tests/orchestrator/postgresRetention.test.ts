/**
 * Checkpoint retention on PostgreSQL, where a checkpoint row holds only channel versions and the
 * values live in checkpoint_blobs, keyed by (thread, namespace, channel, version) and shared by
 * the checkpoints that name that version. Retention `latest` on a finished thread leaves one
 * checkpoint, no writes, and exactly the blobs that checkpoint names (each of them there, so its
 * state reads whole); a paused thread keeps its checkpoints and only the latest one's writes.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import type { CheckpointRetention } from "../../src/orchestrator/checkpointRetention.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";
import { researchGraph } from "./helpers.js";

let cluster: PostgresCluster;
let pool: pg.Pool;

beforeAll(async () => {
  cluster = await startPostgres();
  pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
}, 300_000);

afterAll(async () => {
  await pool?.end();
  await cluster?.stop();
}, 60_000);

const count = async (sql: string, threadId: string) =>
  Number((await pool.query<{ n: string }>(sql, [threadId])).rows[0]?.n ?? 0);

/** The thread's rows, and its blobs no checkpoint names / names of its checkpoints with no blob. */
async function rowsOf(threadId: string) {
  const names = `c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
    AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version`;
  return {
    checkpoints: await count(
      "SELECT COUNT(*) AS n FROM checkpoints WHERE thread_id = $1",
      threadId,
    ),
    writes: await count(
      "SELECT COUNT(*) AS n FROM checkpoint_writes WHERE thread_id = $1",
      threadId,
    ),
    blobs: await count("SELECT COUNT(*) AS n FROM checkpoint_blobs WHERE thread_id = $1", threadId),
    unnamedBlobs: await count(
      `SELECT COUNT(*) AS n FROM checkpoint_blobs b WHERE b.thread_id = $1
         AND NOT EXISTS (SELECT 1 FROM checkpoints c WHERE ${names})`,
      threadId,
    ),
    blobsOnlyOlderName: await count(
      `SELECT COUNT(*) AS n FROM checkpoint_blobs b WHERE b.thread_id = $1
         AND NOT EXISTS (SELECT 1 FROM checkpoints c WHERE ${names} AND c.checkpoint_id =
           (SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = $1))`,
      threadId,
    ),
    missingBlobs: await count(
      `SELECT COUNT(*) AS n FROM checkpoints c, jsonb_each_text(c.checkpoint -> 'channel_versions') v
         WHERE c.thread_id = $1 AND NOT EXISTS (
           SELECT 1 FROM checkpoint_blobs b WHERE b.thread_id = c.thread_id
             AND b.checkpoint_ns = c.checkpoint_ns AND b.channel = v.key AND b.version = v.value)`,
      threadId,
    ),
    olderWrites: await count(
      `SELECT COUNT(*) AS n FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_id !=
         (SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = $1)`,
      threadId,
    ),
  };
}

function orchestrator(retention: CheckpointRetention) {
  const { graph } = researchGraph();
  return new ReviewOrchestrator({
    graph,
    checkpointerOptions: { databaseUrl: cluster.url },
    retention,
  });
}

async function removeThread(threadId: string) {
  const cleanup = await createCheckpointer({ databaseUrl: cluster.url });
  try {
    await cleanup.saver.deleteThread(threadId);
  } finally {
    await cleanup.close();
  }
}

describe("checkpoint retention on PostgreSQL", () => {
  it("latest: a finished thread keeps one checkpoint, no writes, and only the blobs it names", async () => {
    const threadId = `pg-retention-${randomUUID()}`;
    const keepAll = orchestrator("all");
    const pruning = orchestrator("latest");
    try {
      const started = await keepAll.start({}, { threadId });
      const paused = await rowsOf(threadId);
      expect(paused.checkpoints).toBeGreaterThan(2);
      expect(paused.olderWrites).toBe(0); // the writes of a paused thread's older checkpoints go
      expect(paused.writes).toBeGreaterThan(0); // the review's interrupt

      const revised = await keepAll.submitDecision(threadId, started.review?.interruptId ?? "", {
        action: "revise",
        feedback: "Name the sources.",
        reviewer: "ana",
      });
      const before = await rowsOf(threadId);
      // Older checkpoints name versions the latest does not: blobs retention must remove.
      expect(before.unnamedBlobs).toBe(0);
      expect(before.blobsOnlyOlderName).toBeGreaterThan(0);
      const done = await pruning.submitDecision(threadId, revised.review?.interruptId ?? "", {
        action: "approve",
        reviewer: "ben",
      });
      expect(done.state).toBe("completed");

      const after = await rowsOf(threadId);
      expect(after).toMatchObject({
        checkpoints: 1,
        writes: 0,
        unnamedBlobs: 0,
        blobsOnlyOlderName: 0,
        missingBlobs: 0,
      });
      expect(after.blobs).toBeGreaterThan(0);
      expect(after.blobs).toBeLessThan(before.blobs);

      const state = await pruning.getState(threadId);
      expect(state.reviewHistory.map((d) => [d.action, d.reviewer])).toEqual([
        ["revise", "ana"],
        ["approve", "ben"],
      ]);
      expect(state.researchStatus).toBe("approved");
      expect(state.researchEvaluation?.criteria).toHaveLength(5);
    } finally {
      await keepAll.close();
      await pruning.close();
      await removeThread(threadId);
    }
  }, 60_000);
});
