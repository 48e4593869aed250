/**
 * A `review … approve` killed after its decision was recorded and before it was applied (a real
 * SIGKILL at the review's writes, killedCli.ts): the next `review … approve` applies the recorded
 * decision, runs on to the next review and says so — exit 0, the review decided once. Asked for
 * another decision instead, the recorded one is applied all the same and the command ends with
 * ALREADY_DECIDED, saying which decision stands.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OllamaServer } from "../doubles/index.js";
import {
  answers,
  DB,
  evalgate,
  proposalServer,
  ROOT,
  serverEnv,
  storedThread,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

const KILLED_CLI = join(ROOT, "tests/cli/killedCli.ts");
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const freshFolder = workFolders();

let server: OllamaServer;
let pausedFolder: string;
let threadId: string;

/** `evalgate <args>` killed at the writes of the solution review; resolves with its signal. */
function killedAtReviewWrites(args: readonly string[], cwd: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...serverEnv(server) };
  for (const key of ["DATABASE_URL", "EDITOR", "VISUAL"]) delete env[key];
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", TSX, KILLED_CLI, "putWrites:reviewSolution", ...args],
    { cwd, env, stdio: ["ignore", "ignore", "ignore"] },
  );
  return new Promise<NodeJS.Signals | null>((resolve) => {
    child.on("close", (_code, signal) => resolve(signal));
  });
}

/** A copy of the paused run's store, with the solution review's approve recorded and not applied. */
async function killedApprove(): Promise<string> {
  const cwd = await freshFolder();
  cpSync(join(pausedFolder, ".evalgate"), join(cwd, ".evalgate"), { recursive: true });
  expect(await killedAtReviewWrites(["review", threadId, "approve"], cwd)).toBe("SIGKILL");
  return cwd;
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
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe.concurrent("a review decided just before its process was killed", () => {
  it("review … approve again: the recorded approve is applied once, the run goes on, exit 0", async () => {
    const cwd = await killedApprove();
    const again = await evalgate(["review", threadId, "approve"], {
      cwd,
      env: serverEnv(server),
    });
    expect(again.stderr).toMatch(
      /Solution Sought.* was decided before the process that decided it stopped \(approve by [^)]+\); that decision is applied now\./,
    );
    expect(again.stderr).not.toContain("ALREADY_DECIDED");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("next review");
    const stored = await storedThread(join(cwd, DB), threadId);
    expect(stored.history.map((d) => `${d.contentId}:${d.action}`)).toEqual([
      "research:approve",
      "solution:approve",
    ]);
  }, 240_000);

  it("review … revise instead: the recorded approve is applied, and the revise is refused", async () => {
    const cwd = await killedApprove();
    const other = await evalgate(["review", threadId, "revise", "--feedback", "Shorter."], {
      cwd,
      env: serverEnv(server),
    });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /was already decided \(approve by [^)]+\) and that decision is applied; revise was not recorded \[ALREADY_DECIDED\]/,
    );
    const stored = await storedThread(join(cwd, DB), threadId);
    expect(stored.history.map((d) => `${d.contentId}:${d.action}`)).toEqual([
      "research:approve",
      "solution:approve",
    ]);
  }, 240_000);
});
