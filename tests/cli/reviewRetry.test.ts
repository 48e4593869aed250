/**
 * `evalgate review --retry <thread>` end to end, in child processes against the Ollama-protocol
 * test server: a paused run whose recorded decision the graph refuses fails; the retry sets the
 * decision aside, the same review comes back and takes a new decision; a second retry, a thread
 * that is not there and --retry beside a decision are each one message with exit code 2.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createReviewDesk } from "../../src/desk/createReviewDesk.js";
import {
  answers,
  evalgate,
  MODEL,
  proposalServer,
  serverEnv,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();

describe("evalgate review --retry", () => {
  it("runs a thread failed on a refused decision again, once, and its review takes a new decision", async () => {
    const server = await proposalServer();
    const cwd = await freshFolder();
    try {
      const env = serverEnv(server);
      const run = await evalgate(["run", "rfp.md", "--db", "t.sqlite"], {
        cwd,
        env,
        stdin: answers("q"),
      });
      expect(run.code).toBe(0);
      const threadId = threadIdOf(run.stdout);

      // A decision the research review does not take, recorded as a replica that skipped the
      // desk's check would have: the graph refuses it when it is applied, and the thread fails.
      const desk = await createReviewDesk({
        sqlitePath: join(cwd, "t.sqlite"),
        env: { OLLAMA_BASE_URL: server.url },
        model: `ollama:${MODEL}`,
        jobs: { run: false },
      });
      try {
        const pending = await desk.store.pendingOf(threadId);
        const research = pending[0];
        expect(research?.stage).toBe("research");
        await desk.store.recordDecision({
          id: randomUUID(),
          threadId,
          interruptId: research?.interruptId ?? "",
          stage: "research",
          reviewer: "ana",
          action: "retry",
          payload: {},
          decidedAt: new Date().toISOString(),
        });
        expect(await desk.advanceThread(threadId)).toBe("failed");
      } finally {
        await desk.close();
      }

      // The failed thread is listed, with why and the command that runs it again.
      const [listed, listedJson] = await Promise.all([
        evalgate(["reviews", "--db", "t.sqlite"], { cwd, env }),
        evalgate(["reviews", "--json", "--db", "t.sqlite"], { cwd, env }),
      ]);
      expect(listed.stdout).toContain("Failed threads (1):");
      const row = listed.stdout.split("\n").find((line) => line.startsWith(threadId)) ?? "";
      expect(row).toContain(`evalgate review --retry ${threadId} --db t.sqlite`);
      const failed = (JSON.parse(listedJson.stdout) as { failed: Record<string, string>[] }).failed;
      expect(failed.map((thread) => thread.threadId)).toEqual([threadId]);
      expect(failed[0]?.retryWith).toBe(`evalgate review --retry ${threadId} --db t.sqlite`);
      expect(failed[0]?.error).not.toBe("");

      const [beside, missing] = await Promise.all([
        evalgate(["review", threadId, "approve", "--retry", threadId, "--db", "t.sqlite"], {
          cwd,
          env,
        }),
        evalgate(["review", "--retry", "no-such-thread", "--db", "t.sqlite"], { cwd, env }),
      ]);
      expect(beside.code).toBe(2);
      expect(beside.stderr).toContain("--retry takes the thread id alone");
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("no-such-thread");

      const retried = await evalgate(["review", "--retry", threadId, "--db", "t.sqlite"], {
        cwd,
        env,
      });
      expect(retried.stderr).not.toContain("evalgate:");
      expect(retried.code).toBe(0);
      expect(retried.stdout).toContain(`retried thread ${threadId}\n`);
      expect(retried.stdout).toContain("next review");
      expect(retried.stdout).toContain("[research]");
      expect(retried.stdout).toContain(`evalgate review ${threadId} approve`);

      const again = await evalgate(["review", "--retry", threadId, "--db", "t.sqlite"], {
        cwd,
        env,
      });
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(`thread ${threadId} is waiting, not failed`);

      const approved = await evalgate(["review", threadId, "approve", "--db", "t.sqlite"], {
        cwd,
        env,
      });
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain("decided approve on");
      expect(approved.stdout).toContain("[solution]");
    } finally {
      await server.close();
    }
  }, 240_000);
});
