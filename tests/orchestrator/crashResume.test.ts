/**
 * Crash and resume across processes, on the thread engine itself (threadRunner, no front): a
 * worker process advances a proposal thread on a SQLite file to its first review and is killed
 * with SIGKILL; a new process opens the same file, records an approval of every review and
 * advances the thread to the end, each decision applied once. Counting the requests at the
 * Ollama-protocol server prompt by prompt shows that nothing that finished before the kill — the
 * research's writing and judging — was asked of the model again.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaChatRequest, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { STAGE_IDS as STAGES } from "../proposalStages.js";
import { tempDir } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WORKER = join(ROOT, "tests/orchestrator/crashWorker.ts");
const MODEL = "evalgate-crash:test";

interface Worker {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the first stdout line matching `pattern`. */
  line(pattern: RegExp): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** `node --import tsx tests/orchestrator/crashWorker.ts <args>` against the server. */
function worker(args: readonly string[], server: OllamaServer): Worker {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OLLAMA_BASE_URL: server.url,
    EVALGATE_MODEL: MODEL,
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, ...args], {
    cwd: ROOT,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })));
  return {
    child,
    exited,
    line(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = stdout.split("\n").find((l) => pattern.test(l));
          if (found === undefined) return;
          child.stdout.off("data", check);
          resolve(found);
        };
        child.stdout.on("data", check);
        exited.then(() => {
          check();
          reject(new Error(`the worker ended without ${pattern}:\n${stdout}\n${stderr}`));
        });
        check();
      });
    },
  };
}

/** A prompt as the server received it: every message's role and text. */
const promptKey = (request: OllamaChatRequest) =>
  request.messages.map((m) => `${m.role}:${m.content}`).join("\n");

function counts(requests: readonly OllamaChatRequest[]): Map<string, number> {
  const byPrompt = new Map<string, number>();
  for (const request of requests) {
    const key = promptKey(request);
    byPrompt.set(key, (byPrompt.get(key) ?? 0) + 1);
  }
  return byPrompt;
}

describe("a proposal run killed at a review and resumed by a new process", () => {
  let server: OllamaServer;
  let temp: ReturnType<typeof tempDir>;

  beforeEach(async () => {
    server = await startOllamaServer({ models: [MODEL], responder: ollamaProposalResponder(0.85) });
    temp = tempDir("evalgate-crash-");
  });
  afterEach(async () => {
    await server.close();
    temp.remove();
  });

  it("finishes the thread without repeating any model call made before the kill", async () => {
    const sqlite = join(temp.dir, "checkpoints.sqlite");
    const threadId = "crash-1";

    const first = worker(["start", sqlite, threadId], server);
    expect(await first.line(/^paused /)).toBe(`paused ${threadId} research`);
    const beforeKill = server.chatRequests();
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    // Before the kill: the research was written once and judged once per criterion, nothing more.
    const writers = beforeKill.filter((r) => isWriterPrompt(r.messages));
    expect(writers).toHaveLength(1);
    expect(writers[0]?.messages.at(-1)?.content).toMatch(/^Analyse the request for proposals/);
    const judged = beforeKill.filter((r) => !isWriterPrompt(r.messages));
    expect(judged.length).toBeGreaterThanOrEqual(3);

    const second = worker(["resume", sqlite, threadId], server);
    const done = await second.line(/^completed /);
    const exit = await second.exited;
    expect(exit.stderr).toBe("");
    expect(exit.code).toBe(0);
    const summary = JSON.parse(done.slice("completed ".length)) as {
      statuses: Record<string, string>;
      decisions: number;
      history: number;
    };
    expect(summary.statuses).toEqual(Object.fromEntries(STAGES.map((s) => [s, "approved"])));
    // Every decision recorded was applied, and the graph took each exactly once.
    expect(summary.decisions).toBe(STAGES.length);
    expect(summary.history).toBe(STAGES.length);

    const all = server.chatRequests();
    const byPrompt = counts(all);
    // Every call made before the kill was made exactly once in the whole run …
    for (const request of beforeKill) expect(byPrompt.get(promptKey(request))).toBe(1);
    // … and the new process made no call twice either: one writer call per stage.
    expect([...byPrompt.values()].every((n) => n === 1)).toBe(true);
    expect(all.filter((r) => isWriterPrompt(r.messages))).toHaveLength(STAGES.length);
  }, 90_000);
});
