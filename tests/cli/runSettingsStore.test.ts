/**
 * Each thread's run settings live in the store, written in the transaction that records the
 * thread: three `run`s at once on one `--db` keep all three threads' settings, round after round
 * (a side file read and written back by each run lost one in a few rounds). A thread the store
 * does not have is refused before any model is chosen: the Ollama-protocol stand-in is never asked
 * anything (no probe, no download).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIALS_NOT_KEPT } from "../../src/cli/review/runThread.js";
import { openReviewStore } from "../../src/store/index.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { answers, evalgate, RFP, threadIdOf, workFolders } from "./reviewHarness.js";

const MODELS = ["writer-a:test", "writer-b:test", "writer-c:test"];
const ROUNDS = 6;
const freshFolder = workFolders();
let server: OllamaServer;

beforeAll(async () => {
  // Every chat request is refused: a run records its thread, then stops at once.
  server = await startOllamaServer({
    models: MODELS,
    behaviour: { status: 400, errorMessage: "no writing today" },
  });
});
afterAll(async () => {
  await server?.close();
});

function env(): Record<string, string> {
  return { OLLAMA_BASE_URL: server.url };
}

describe("three runs at once on one store", () => {
  it(`keep all three threads' settings, in each of ${ROUNDS} rounds`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const cwd = await freshFolder();
      await writeFile(join(cwd, "rfp.md"), RFP);
      const runs = await Promise.all(
        MODELS.map((model) =>
          evalgate(["run", "rfp.md", "--db", "threads.sqlite", "--model", `ollama:${model}`], {
            cwd,
            env: env(),
            stdin: answers("q"),
          }),
        ),
      );
      const reviews = await openReviewStore({ sqlitePath: join(cwd, "threads.sqlite") });
      try {
        for (const [i, run] of runs.entries()) {
          const threadId = threadIdOf(run.stdout);
          const settings = await reviews.runSettings(threadId);
          expect(settings?.model, `round ${round}, ${MODELS[i]}`).toBe(`ollama:${MODELS[i]}`);
          expect(settings?.rfpFile).toBe("rfp.md");
        }
      } finally {
        await reviews.close();
      }
    }
  }, 300_000);
});

describe("a thread the store does not have", () => {
  it("run --thread and review are refused before any model is chosen", async () => {
    const cwd = await freshFolder();
    // The store exists (another thread's), the thread does not.
    const reviews = await openReviewStore({ sqlitePath: join(cwd, "threads.sqlite") });
    await reviews.close();
    const asked = server.requests.length;
    const run = await evalgate(["run", "--thread", "no-such-thread", "--db", "threads.sqlite"], {
      cwd,
      env: env(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'evalgate: no thread "no-such-thread" in threads.sqlite; give an RFP file to start one',
    );
    const review = await evalgate(
      ["review", "no-such-thread", "approve", "--db", "threads.sqlite"],
      { cwd, env: env() },
    );
    expect(review.code).toBe(2);
    expect(review.stderr).toContain('no thread "no-such-thread" in threads.sqlite');
    // Neither asked the model server anything: no probe, no model chosen.
    expect(server.requests.length).toBe(asked);
    expect(`${run.stderr}${review.stderr}`).not.toMatch(/download|Ollama/);
  }, 60_000);
});

describe("a password in the model's URL", () => {
  it("is in no byte of the store: the thread keeps the URL without it, and the run says so", async () => {
    const cwd = await freshFolder();
    await writeFile(join(cwd, "rfp.md"), RFP);
    const password = "Tr0ub4dor-kept-nowhere";
    const at = server.url.replace("http://", `http://evaluser:${password}@`);
    const run = await evalgate(
      ["run", "rfp.md", "--db", "threads.sqlite", "--model", `ollama:${MODELS[0]}@${at}`],
      { cwd, stdin: answers("q") },
    );
    expect(run.stderr).toContain(CREDENTIALS_NOT_KEPT);
    const reviews = await openReviewStore({ sqlitePath: join(cwd, "threads.sqlite") });
    try {
      const settings = await reviews.runSettings(threadIdOf(run.stdout));
      expect(settings?.model).toBe(`ollama:${MODELS[0]}@${server.url}`);
    } finally {
      await reviews.close();
    }
    for (const name of await readdir(cwd)) {
      if (!name.startsWith("threads.sqlite")) continue;
      expect((await readFile(join(cwd, name))).includes(password), name).toBe(false);
    }
    expect(`${run.stdout}${run.stderr}`).not.toContain(password);
  });
});

describe("settings given again with --thread", () => {
  it("are refused before anything is stored or run unless --override-settings, then kept", async () => {
    const cwd = await freshFolder();
    await writeFile(join(cwd, "rfp.md"), RFP);
    const db = ["--db", "threads.sqlite"];
    const started = await evalgate(
      ["run", "rfp.md", ...db, "--model", `ollama:${MODELS[0]}`, "--max-revisions", "2"],
      { cwd, env: env(), stdin: answers("q") },
    );
    expect(started.code).toBe(0);
    const threadId = threadIdOf(started.stdout);
    const kept = async () => {
      const reviews = await openReviewStore({ sqlitePath: join(cwd, "threads.sqlite") });
      try {
        return await reviews.runSettings(threadId);
      } finally {
        await reviews.close();
      }
    };
    const asked = server.requests.length;
    const other = ["--model", `ollama:${MODELS[1]}`, "--max-revisions", "3"];
    const refused = await evalgate(["run", "--thread", threadId, ...db, ...other], {
      cwd,
      env: env(),
      stdin: answers("q"),
    });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim()).toBe(
      `evalgate: thread ${threadId} was started with other settings: --model ollama:${MODELS[1]} (it started with ollama:${MODELS[0]}), --max-revisions 3 (it started with 2); go on without them, or add --override-settings to use them from now on [COMMAND_INVALID]`,
    );
    // `review` too, pointing to the command that can change them; the thread stays paused.
    const decided = await evalgate(["review", threadId, "retry", ...db, "--max-revisions", "3"], {
      cwd,
      env: env(),
    });
    expect(decided.code).toBe(2);
    expect(decided.stderr.trim()).toBe(
      `evalgate: thread ${threadId} was started with other settings: --max-revisions 3 (it started with 2); go on without them, or use them from now on with \`evalgate run --thread ${threadId} --override-settings\` [COMMAND_INVALID]`,
    );
    const listed = await evalgate(["reviews", ...db, "--json"], { cwd });
    expect(JSON.parse(listed.stdout)).toMatchObject({ failed: [], reviews: [{ threadId }] });
    expect(server.requests.length).toBe(asked);
    expect(await kept()).toMatchObject({ model: `ollama:${MODELS[0]}`, maxRevisions: 2 });
    // The same settings again are no change.
    const same = ["--model", `ollama:${MODELS[0]}`, "--max-revisions", "2"];
    const again = await evalgate(["run", "--thread", threadId, ...db, ...same], {
      cwd,
      env: env(),
      stdin: answers("q"),
    });
    expect(again.code).toBe(0);
    const overridden = await evalgate(
      ["run", "--thread", threadId, ...db, ...other, "--override-settings"],
      { cwd, env: env(), stdin: answers("q") },
    );
    expect(overridden.stderr).not.toContain("evalgate:");
    expect(overridden.code).toBe(0);
    expect(await kept()).toMatchObject({ model: `ollama:${MODELS[1]}`, maxRevisions: 3 });
  }, 120_000);
});
