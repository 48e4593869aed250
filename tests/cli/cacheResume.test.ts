/**
 * An evaluation killed between two criteria goes on where it stopped: `evalgate evaluate --db`
 * runs in a child process against the Ollama-protocol server, which holds the third criterion's
 * request open; the test kills the child (SIGKILL) while it waits, runs the same command again
 * and counts the requests the server receives after the kill. The criteria answered before the
 * kill are not asked again; a third run asks nothing; --no-cache asks everything.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvaluationResultSchema } from "../../src/scoring/result.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  BIN,
  FUNDABLE_CONTENT,
  IFB_CATALOG,
  ifbJudge,
  JUDGE_MODEL,
  judgeEnv,
  ROOT,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

let server: OllamaServer;
const temp = tempFolderForFile();
let content: string;
let db: string;

beforeAll(async () => {
  server = await startOllamaServer({ models: [JUDGE_MODEL], responder: ifbJudge });
  content = await writeText(temp.dir, "proposal.md", FUNDABLE_CONTENT);
  db = join(temp.dir, "checkpoints.sqlite");
});

afterAll(async () => {
  await server?.close();
});

const env = () => judgeEnv(server.url);
const args = (...extra: string[]) => [
  "evaluate",
  content,
  "--catalog",
  IFB_CATALOG,
  "--concurrency",
  "1",
  // One criterion per call, so the kill falls between two criteria.
  "--mode",
  "per-criterion",
  "--format",
  "json",
  ...extra,
];

/** The criterion a judge prompt asks about, by the question the IFB catalog gives it. */
function criterionOf(prompt: string): string {
  if (prompt.includes("Is the company based in Hamburg?")) return "c1";
  if (prompt.includes("Rate the technological innovation")) return "c2";
  if (prompt.includes("Rate the market potential")) return "c3";
  return "other";
}

function askedSince(index: number): string[] {
  return server
    .chatRequests()
    .slice(index)
    .map((r) => criterionOf(r.messages.find((m) => m.role === "user")?.content ?? ""));
}

/** Runs the command until the server holds its third request, then kills it with SIGKILL. */
async function runAndKillAtThirdCall(): Promise<NodeJS.Signals | null> {
  const start = server.chatRequests().length;
  server.setBehaviour((n) => (n === start + 3 ? { hold: "before-response" } : {}));
  const child = spawn(process.execPath, [BIN, ...args("--db", db)], {
    cwd: ROOT,
    env: { ...process.env, ...env() },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("close", (_code, signal) => resolve(signal)),
  );
  const ended = exited.then(() => {
    throw new Error(`the command ended before its third model call:\n${stderr}`);
  });
  await Promise.race([server.waitFor((s) => s.held === 1), ended]);
  child.kill("SIGKILL");
  const signal = await exited;
  server.setBehaviour({});
  server.release();
  return signal;
}

describe("evaluate --db: an evaluation killed between two criteria", () => {
  it(
    "resumes with only the criteria still to judge, then asks nothing, and --no-cache asks all",
    async () => {
      const before = server.chatRequests().length;
      expect(await runAndKillAtThirdCall()).toBe("SIGKILL");
      expect(askedSince(before)).toEqual(["c1", "c2", "c3"]);

      const afterKill = server.chatRequests().length;
      const resumed = await runEvalgate(args("--db", db), { env: env() });
      expect(resumed.stderr).not.toContain("Error");
      expect(resumed.code).toBe(0);
      // Goal: no call repeated. Only the criterion whose answer the kill cut off is asked.
      expect(askedSince(afterKill)).toEqual(["c3"]);
      const result = EvaluationResultSchema.parse(JSON.parse(resumed.stdout));
      expect(result.cacheHits).toBe(2);
      expect(result.status).toBe("FUNDABLE");

      const afterResume = server.chatRequests().length;
      const again = await runEvalgate(args("--db", db), { env: env() });
      expect(again.code).toBe(0);
      expect(askedSince(afterResume)).toEqual([]);
      expect(EvaluationResultSchema.parse(JSON.parse(again.stdout)).cacheHits).toBe(3);

      const afterAgain = server.chatRequests().length;
      const uncached = await runEvalgate(args("--db", db, "--no-cache"), { env: env() });
      expect(uncached.code).toBe(0);
      expect(askedSince(afterAgain)).toEqual(["c1", "c2", "c3"]);
      expect(EvaluationResultSchema.parse(JSON.parse(uncached.stdout)).cacheHits).toBe(0);
    },
    SPAWN_TIMEOUT * 2,
  );
});
