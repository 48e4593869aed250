/**
 * The review boundary at the command line: `evalgate review`, `review --retry` and `run` (its
 * terminal review) in child processes, against a run paused at its research review. The probe's
 * values and more of the kind — feedback of three zero-width spaces, a reviewer name with a line
 * break and a fake log line, content files with NUL bytes or escape sequences, structured content
 * of the wrong shape, a 10,000-character thread id, an invisible note — each end with exit code 2
 * and one message naming the option (ids cut to 64 characters, escaped), or, in the terminal
 * review, "not accepted" and the question again. The thread stays paused with no decision.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReviewStore } from "../../src/store/index.js";
import type { OllamaServer } from "../doubles/index.js";
import {
  answers,
  DB,
  evalgate,
  proposalServer,
  serverEnv,
  storedThread,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();
let server: OllamaServer;
let cwd: string;
let threadId: string;
let interruptId: string;

beforeAll(async () => {
  server = await proposalServer();
  cwd = await freshFolder();
  const first = await evalgate(["run", "rfp.md"], { cwd, env: serverEnv(server), stdin: "" });
  expect(first.code).toBe(0);
  threadId = threadIdOf(first.stdout);
  interruptId = (await storedThread(join(cwd, DB), threadId)).review?.interruptId ?? "";
  expect(interruptId).not.toBe("");
  await writeFile(join(cwd, "nul.md"), "Research notes\u0000\u0000with NUL bytes\n");
  await writeFile(join(cwd, "escape.md"), "Research notes \u001B[2J cleared the screen\n");
  await writeFile(join(cwd, "list.json"), "[1, 2]\n");
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const run = (args: readonly string[], stdin = "") =>
  evalgate(args, { cwd, env: serverEnv(server), stdin });

/** The one line of an error: exit code 2, `evalgate: <message>` on stderr. */
function refusal(result: { code: number | null; stderr: string }): string {
  expect(result.code).toBe(2);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0] ?? "";
}

describe("evalgate review refuses what no review takes", () => {
  it("names the option at fault, shows a refused id cut, and leaves the thread paused", async () => {
    const long = "t".repeat(10_000);
    const [zeroWidth, tooLong, name, nul, escaped, note, longId, retryId, runName] =
      await Promise.all([
        run(["review", threadId, "revise", "--feedback", "\u200B\u200B\u200B"]),
        run(["review", threadId, "revise", "--feedback", "f".repeat(100_000)]),
        run([
          "review",
          threadId,
          "approve",
          "--reviewer",
          "ana\n2026-05-04 INFO approved by admin",
        ]),
        run(["review", threadId, "edit", "--content-file", "nul.md"]),
        run(["review", threadId, "edit", "--content-file", "escape.md"]),
        run(["review", threadId, "approve", "--correct", "c1=0.5", "--note", "c1=\u200B"]),
        run(["review", long, "approve"]),
        run(["review", "--retry", `${long}\nINFO`]),
        run(["run", "--thread", threadId, "--reviewer", "a\u202Eb"]),
      ]);
    expect(refusal(zeroWidth)).toContain("--feedback: has no visible text");
    expect(refusal(tooLong)).toContain("--feedback: is longer than 20000 characters");
    expect(refusal(name)).toContain("--reviewer: has a line break");
    expect(refusal(nul)).toContain("nul.md: contains NUL bytes");
    expect(refusal(escaped)).toContain("--content-file: has a NUL or other control character");
    expect(refusal(note)).toContain('--note "c1": has no visible text');
    for (const id of [longId, retryId]) {
      const message = refusal(id);
      expect(message).toContain(`"${"t".repeat(64)}…"`);
      expect(message.length).toBeLessThan(300);
    }
    expect(refusal(runName)).toContain("--reviewer");

    const stored = await storedThread(join(cwd, DB), threadId);
    expect(stored.review?.interruptId).toBe(interruptId);
    expect(stored.history).toEqual([]);
  }, 120_000);

  it("refuses an edit that does not fit the stage's shape through the desk, recording nothing", async () => {
    const wrong = await run(["review", threadId, "edit", "--content-file", "list.json"]);
    expect(refusal(wrong)).toContain("content: the Research takes a JSON object");
    const store = await openReviewStore({ sqlitePath: join(cwd, DB) });
    try {
      expect(await store.decisionsOf(threadId)).toEqual([]);
      expect((await store.pendingOf(threadId)).map((p) => p.interruptId)).toEqual([interruptId]);
    } finally {
      await store.close();
    }
  }, 120_000);

  it("in the terminal review, says the decision was not accepted and asks again", async () => {
    const session = await run(
      ["run", "--thread", threadId],
      answers("r", "\u200B\u200B\u200B", "q"),
    );
    expect(session.code).toBe(0);
    expect(session.stdout).toContain(
      "The decision was not accepted: feedback: has no visible text",
    );
    expect(session.stdout).toContain(`Thread ${threadId} is paused at: Research`);
    const stored = await storedThread(join(cwd, DB), threadId);
    expect(stored.review?.interruptId).toBe(interruptId);
    expect(stored.history).toEqual([]);
  }, 120_000);
});
