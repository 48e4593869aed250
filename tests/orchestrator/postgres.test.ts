import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { gate, PROBLEM_CRITERIA, problemInput } from "./helpers.js";

/**
 * The start → pause → restart → resume flow on PostgreSQL: against EVALGATE_TEST_DATABASE_URL
 * when it is set (.ci/postgres.sh prints one), otherwise against a throwaway cluster this file
 * starts with `.ci/postgres.sh start` (which installs PostgreSQL first on a fresh machine) and
 * stops afterwards. When PostgreSQL cannot be had, the test fails and says how to get it: it never
 * skips.
 */
const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL("../../.ci/postgres.sh", import.meta.url));
const INSTALL_HINT =
  "PostgreSQL could not be installed or started: run .ci/postgres.sh (it installs and starts one) and set EVALGATE_TEST_DATABASE_URL to the DATABASE_URL it prints";

function postgresInstalled(): boolean {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return false;
  return readdirSync(root).some((version) => existsSync(join(root, version, "bin", "initdb")));
}

function field(output: string, name: string): string {
  const line = output.split("\n").find((l) => l.startsWith(`${name}=`));
  if (line === undefined) throw new Error(`.ci/postgres.sh printed no ${name}=: ${output}`);
  return line.slice(name.length + 1);
}

let databaseUrl: string | undefined;
let clusterDir: string | undefined;
let unavailable: string | undefined;

beforeAll(async () => {
  const external = process.env.EVALGATE_TEST_DATABASE_URL?.trim();
  if (external !== undefined && external !== "") {
    databaseUrl = external;
    return;
  }
  // A fresh machine has no PostgreSQL: the script installs it (Debian's package) the first time.
  const installed = postgresInstalled();
  try {
    const args = installed ? [SCRIPT, "start", "--no-install"] : [SCRIPT, "start"];
    const { stdout } = await run("bash", args, { timeout: installed ? 15_000 : 280_000 });
    clusterDir = field(stdout, "EVALGATE_PG_DIR");
    databaseUrl = field(stdout, "DATABASE_URL");
  } catch (error) {
    unavailable = `${INSTALL_HINT} (${error instanceof Error ? error.message : String(error)})`;
  }
}, 300_000);

afterAll(async () => {
  if (clusterDir !== undefined)
    await run("bash", [SCRIPT, "stop", clusterDir], { timeout: 15_000 });
}, 20_000);

describe("ReviewOrchestrator on PostgreSQL", () => {
  it("pauses, survives a restart, and resumes without judging again", async () => {
    if (unavailable !== undefined) throw new Error(unavailable);
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
