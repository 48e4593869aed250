/**
 * Real SIGKILLs at chosen checkpoint boundaries, then the commands a user would run. A proposal
 * run is paused at its second review (the research approved) with `evalgate run`; each case copies
 * that store and kills a real `evalgate` process (killedCli.ts: the command as shipped, with only
 * the SQLite saver's writes wrapped to SIGKILL the process at the boundary):
 *
 * - after `startEvaluateConnectionPairs` wrote its output and before the next checkpoint: the
 *   checkpoint has pending writes, `next` is empty (the thread the probe found "completed");
 * - before the solution review's answer was written: the decision is recorded, not applied;
 * - after the review's answer was written, before the next checkpoint: the interrupt is answered;
 * - after the connection pairs were judged, before the evaluation's writes: the judge's answers
 *   are in the cache, nothing else;
 * - at the very first checkpoint of a new run: the thread has no checkpoint at all.
 *
 * Each thread is then listed by `evalgate reviews` (work left) or resumed by `evalgate run
 * --thread` / `evalgate review --retry`, and must end with every stage approved, each review
 * decided once — never "completed" while work is left.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProposalGraph } from "../../src/graph/proposalGraph.js";
import { type ThreadProgress, threadProgress } from "../../src/graph/threadProgress.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { openReviewStore } from "../../src/store/index.js";
import type { OllamaServer } from "../doubles/index.js";
import {
  answers,
  DB,
  evalgate,
  promptCounts,
  proposalServer,
  ROOT,
  STAGES,
  serverEnv,
  storedThread,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

const KILLED_CLI = join(ROOT, "tests/cli/killedCli.ts");
/** tsx's loader, named by path: the child runs in a folder without node_modules. */
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const freshFolder = workFolders();

let server: OllamaServer;
let pausedFolder: string;
let threadId: string;

/** `evalgate <args>` that kills itself at `boundary`; resolves with how it ended. */
function killedAt(boundary: string, args: readonly string[], cwd: string, model = server) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...serverEnv(model) };
  for (const key of ["DATABASE_URL", "EDITOR", "VISUAL"]) delete env[key];
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", TSX, KILLED_CLI, boundary, ...args],
    { cwd, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  return new Promise<{ signal: NodeJS.Signals | null; output: string }>((resolve) => {
    child.on("close", (_code, signal) => resolve({ signal, output }));
  });
}

/** A folder with a copy of the paused run's store (and the RFP and applicant files). */
async function copyOfPausedStore(): Promise<string> {
  const cwd = await freshFolder();
  cpSync(join(pausedFolder, ".evalgate"), join(cwd, ".evalgate"), { recursive: true });
  return cwd;
}

/** The thread's checkpoint as LangGraph reads it, and the judgement on it. */
async function checkpointOf(cwd: string, id: string) {
  const checkpointer = await createCheckpointer({ sqlitePath: join(cwd, DB), env: {} });
  try {
    const graph = buildProposalGraph().compile({ checkpointer: checkpointer.saver });
    const snapshot = await graph.getState({ configurable: { thread_id: id } });
    const progress: ThreadProgress = threadProgress(snapshot);
    return {
      next: snapshot.next,
      tasks: snapshot.tasks.map((t) => ({ name: t.name, interrupts: t.interrupts.length })),
      progress,
    };
  } finally {
    await checkpointer.close();
  }
}

async function unappliedDecisions(cwd: string, id: string) {
  const store = await openReviewStore({ sqlitePath: join(cwd, DB) });
  try {
    return (await store.unappliedDecisions(id)).map((d) => d.action);
  } finally {
    await store.close();
  }
}

/** `evalgate run --thread <id>` answering approve to `reviews` reviews. */
function runOn(cwd: string, id: string, reviews: number, model = server) {
  return evalgate(["run", "--thread", id], {
    cwd,
    env: serverEnv(model),
    stdin: answers(...Array.from({ length: reviews }, () => "a")),
    timeoutMs: 120_000,
  });
}

/** Every stage approved, every review decided exactly once, in order. */
async function expectFinishedOnce(cwd: string, id: string) {
  const stored = await storedThread(join(cwd, DB), id);
  expect(stored.review).toBeUndefined();
  expect(stored.history.map((d) => `${d.contentId}:${d.action}`)).toEqual(
    STAGES.map((s) => `${s}:approve`),
  );
  const progress = await checkpointOf(cwd, id);
  expect(progress.progress).toEqual({ kind: "finished" });
}

beforeAll(async () => {
  server = await proposalServer();
  pausedFolder = await freshFolder();
  const first = await evalgate(["run", "rfp.md", "--applicant", "applicant.md"], {
    cwd: pausedFolder,
    env: serverEnv(server),
    stdin: answers("a"),
  });
  expect(first.code).toBe(0);
  threadId = threadIdOf(first.stdout);
  expect(first.stdout).toContain(`Thread ${threadId} is paused at: Solution Sought`);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe.concurrent("a real evalgate process killed at a checkpoint boundary", () => {
  it("with a start node's writes pending and `next` empty: listed as work left, refused as a review, run on by run --thread", async () => {
    const cwd = await copyOfPausedStore();
    const killed = await killedAt(
      "putAfter:startEvaluateConnectionPairs",
      ["review", threadId, "approve"],
      cwd,
    );
    expect(killed.signal).toBe("SIGKILL");
    // The probe's state: nothing in `next`, one task whose writes wait to be applied.
    const at = await checkpointOf(cwd, threadId);
    expect(at.next).toEqual([]);
    expect(at.tasks).toEqual([{ name: "startEvaluateConnectionPairs", interrupts: 0 }]);
    expect(at.progress).toEqual({
      kind: "work_left",
      nodes: ["startEvaluateConnectionPairs"],
      errors: [],
    });

    const listed = await evalgate(["reviews"], { cwd, env: serverEnv(server) });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("No paused threads");
    expect(listed.stdout).toContain("Threads with work left and no review (1):");
    const row = listed.stdout.split("\n").find((line) => line.startsWith(threadId));
    expect(row).toContain("stopped");
    expect(row).toContain("judging Connection Pairs");
    expect(row).toContain(`evalgate run --thread ${threadId}`);

    const refused = await evalgate(["review", threadId, "approve"], {
      cwd,
      env: serverEnv(server),
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("the run stopped with work left (judging Connection Pairs)");

    const resumed = await runOn(cwd, threadId, STAGES.length - 2);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(
      "The run stopped with work left (judging Connection Pairs); running on from there.",
    );
    expect(resumed.stdout).not.toContain("Review: Solution Sought");
    expect(resumed.stdout).toContain(`Run completed (thread ${threadId}).`);
    await expectFinishedOnce(cwd, threadId);
  }, 240_000);

  it("with the decision recorded and not applied: run --thread applies it, without asking again", async () => {
    const cwd = await copyOfPausedStore();
    const killed = await killedAt("putWrites:reviewSolution", ["review", threadId, "approve"], cwd);
    expect(killed.signal).toBe("SIGKILL");
    const at = await checkpointOf(cwd, threadId);
    expect(at.progress.kind).toBe("paused");
    expect(await unappliedDecisions(cwd, threadId)).toEqual(["approve"]);

    const resumed = await runOn(cwd, threadId, STAGES.length - 2);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(
      /This review was decided before the run stopped \(approve by [^)]+\); applying it now\./,
    );
    expect(resumed.stdout).not.toContain("Review: Solution Sought");
    expect(resumed.stdout).toContain(`Run completed (thread ${threadId}).`);
    await expectFinishedOnce(cwd, threadId);
  }, 240_000);

  it("with the review's answer written and the next checkpoint not: review --retry runs it on", async () => {
    const cwd = await copyOfPausedStore();
    const killed = await killedAt("putAfter:reviewSolution", ["review", threadId, "approve"], cwd);
    expect(killed.signal).toBe("SIGKILL");
    const at = await checkpointOf(cwd, threadId);
    // The review's interrupt is still among the writes, but answered: not paused.
    expect(at.tasks).toEqual([{ name: "reviewSolution", interrupts: 1 }]);
    expect(at.next).toEqual([]);
    expect(at.progress).toEqual({ kind: "work_left", nodes: ["reviewSolution"], errors: [] });

    const retried = await evalgate(["review", "--retry", threadId], {
      cwd,
      env: serverEnv(server),
    });
    // No error; stderr shows the connection pairs being written and judged.
    expect(retried.stderr).not.toContain("evalgate:");
    expect(retried.stderr).toContain("writing Connection Pairs…\n");
    expect(retried.stderr).toMatch(/\nConnection Pairs judged: /);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain(`retried thread ${threadId}`);
    expect(retried.stdout).toContain("next review");
    expect(retried.stdout).toContain("Connection Pairs");

    const resumed = await runOn(cwd, threadId, STAGES.length - 2);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`Run completed (thread ${threadId}).`);
    await expectFinishedOnce(cwd, threadId);
  }, 240_000);

  it("with the judge's answers cached and the evaluation's writes lost: run --thread asks the judge nothing again", async () => {
    // A server of its own: the calls it counts are this case's alone.
    const own = await proposalServer();
    try {
      const cwd = await copyOfPausedStore();
      const killed = await killedAt(
        "putWrites:evaluateConnectionPairs",
        ["review", threadId, "approve"],
        cwd,
        own,
      );
      expect(killed.signal).toBe("SIGKILL");
      const beforeKill = own.chatRequests();
      expect(beforeKill.length).toBeGreaterThan(1);
      expect((await checkpointOf(cwd, threadId)).progress).toEqual({
        kind: "work_left",
        nodes: ["evaluateConnectionPairs"],
        errors: [],
      });

      const resumed = await runOn(cwd, threadId, STAGES.length - 2, own);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(
        "The run stopped with work left (judging Connection Pairs); running on from there.",
      );
      expect(resumed.stdout).toContain(`Run completed (thread ${threadId}).`);
      await expectFinishedOnce(cwd, threadId);
      // The pairs were written and judged once in all: nothing asked before the kill was again.
      expect([...promptCounts(own.chatRequests())].filter(([, n]) => n > 1)).toEqual([]);
    } finally {
      await own.close();
    }
  }, 240_000);

  it("at the first checkpoint of a new run: run --thread runs it from the input it was started with", async () => {
    const cwd = await freshFolder();
    const fresh = "killed-before-first-checkpoint";
    const killed = await killedAt(
      "put:1",
      ["run", "rfp.md", "--applicant", "applicant.md", "--thread", fresh],
      cwd,
    );
    expect(killed.signal).toBe("SIGKILL");
    expect((await checkpointOf(cwd, fresh)).progress).toEqual({ kind: "not_started" });

    const resumed = await runOn(cwd, fresh, STAGES.length);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(
      "stopped before its first checkpoint; running it from its input",
    );
    expect(resumed.stdout).toContain(`Run completed (thread ${fresh}).`);
    await expectFinishedOnce(cwd, fresh);
  }, 240_000);
});
