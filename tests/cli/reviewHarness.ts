/**
 * Drives the review commands end to end: `node bin/evalgate.mjs …` in a child process (no shell)
 * in a temporary working folder, with the reviewer's answers written to its stdin, against an
 * Ollama-protocol test server that answers the writer and judge prompts (proposalResponder). The
 * stored threads are read back through the real orchestrator on the same SQLite file.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { buildProposalGraph } from "../../src/graph/proposalGraph.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import {
  type OllamaBehaviourPlan,
  type OllamaChatRequest,
  type OllamaServer,
  startOllamaServer,
} from "../doubles/index.js";
import { STAGE_IDS } from "../proposalStages.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = join(ROOT, "bin/evalgate.mjs");
/** The model the test server has pulled. */
export const MODEL = "evalgate-writer:test";
export const DB = ".evalgate/checkpoints.sqlite";

export const RFP = [
  "Calder Bay Community Foundation — Resilient Neighbourhoods 2026.",
  "Grants of USD 50,000–150,000 over two years for flood resilience serving low-income households.",
  "Proposals need a problem statement, methodology, budget, timeline and conclusion.",
].join("\n");
export const APPLICANT =
  "Calder Bay Housing Trust, a registered nonprofit since 2009; retrofit crews flood-proofed 40 homes in 2024.";

/** The stages of the proposal graph, in review order (config/proposal.json). */
export const STAGES = STAGE_IDS;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface SpawnOptions {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** In a session of its own: no controlling terminal (/dev/tty cannot be opened in it). */
  detached?: boolean;
}

/**
 * The child's environment: ours without model, database and editor settings and without what npm
 * or npx set when they started the tests (the command tells npx from a plain start by them),
 * plus `extra`.
 */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["OLLAMA_BASE_URL", "EVALGATE_MODEL", "DATABASE_URL", "EDITOR", "VISUAL"]) {
    delete env[key];
  }
  for (const key of Object.keys(env)) {
    if (key.startsWith("npm_") || key === "EVALGATE_EDITOR") delete env[key];
  }
  return { ...env, ...extra };
}

/** A running `evalgate` whose stdin stays open until `end` (or the test kills it). */
export interface LiveCli {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  write(text: string): void;
  end(text?: string): void;
  /** Resolves once stdout matches, with the match; rejects when the process ends first. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<CliRun>;
}

export function startEvalgate(args: readonly string[], options: SpawnOptions): LiveCli {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: childEnv(options.env ?? {}),
    stdio: ["pipe", "pipe", "pipe"],
    detached: options.detached === true,
  });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  // A child that ends before reading everything closes the pipe: that is not the test's error.
  child.stdin.on("error", () => undefined);
  const exited = new Promise<CliRun>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `evalgate ${args.join(" ")} did not finish in time\nstdout:\n${stdout}\nstderr:\n${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 60_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      for (const listener of listeners) listener();
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    write: (text) => child.stdin.write(text),
    end: (text) => child.stdin.end(text),
    waitForStdout(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (match !== null) {
            done();
            resolve(match);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(
              new Error(
                `evalgate ended before printing ${pattern}\nstdout:\n${stdout}\nstderr:\n${stderr}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(`no ${pattern} on stdout in time\nstdout:\n${stdout}\nstderr:\n${stderr}`),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    exited,
  };
}

/** Runs `evalgate …` to its end, with `stdin` written and closed (empty: stdin ends at once). */
export function evalgate(
  args: readonly string[],
  options: SpawnOptions & { stdin?: string },
): Promise<CliRun> {
  const live = startEvalgate(args, options);
  live.end(options.stdin ?? "");
  return live.exited;
}

/** One answer per line, as a reviewer types them. */
export const answers = (...lines: string[]): string => lines.map((line) => `${line}\n`).join("");

/** An Ollama-protocol server with MODEL pulled, answering writer and judge prompts. */
export function proposalServer(behaviour?: OllamaBehaviourPlan): Promise<OllamaServer> {
  return startOllamaServer({
    models: [MODEL],
    responder: ollamaProposalResponder(0.85),
    ...(behaviour === undefined ? {} : { behaviour }),
  });
}

export function serverEnv(server: Pick<OllamaServer, "url">): Record<string, string> {
  return { OLLAMA_BASE_URL: server.url, EVALGATE_MODEL: MODEL };
}

/** The user prompt of a chat request. */
export function userPrompt(request: OllamaChatRequest): string {
  return request.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
}

/** The writer prompts the server received whose task line starts with `task`. */
export function writerRequests(server: OllamaServer, task: string): OllamaChatRequest[] {
  return server
    .chatRequests()
    .filter((r) => isWriterPrompt(r.messages) && userPrompt(r).startsWith(task));
}

/** How many times each distinct prompt (system and user text) reached the server. */
export function promptCounts(requests: readonly OllamaChatRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of requests) {
    const key = request.messages.map((m) => `${m.role}:${m.content}`).join("\n");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export const RESEARCH_TASK = "Analyse the request for proposals";
export const SOLUTION_TASK = "From the research on the funder";

/** A temporary working folder holding the RFP and applicant files. */
export async function workFolder(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "evalgate-review-"));
  await writeFile(join(dir, "rfp.md"), `${RFP}\n`, "utf8");
  await writeFile(join(dir, "applicant.md"), `${APPLICANT}\n`, "utf8");
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * For one test file (call it at the top level): a maker of fresh work folders, each removed
 * after the file's tests.
 */
export function workFolders(): () => Promise<string> {
  const made: Array<Awaited<ReturnType<typeof workFolder>>> = [];
  afterAll(async () => {
    for (const folder of made) await folder.remove();
  });
  return async () => {
    const folder = await workFolder();
    made.push(folder);
    return folder.dir;
  };
}

/** The thread id `run` prints first. */
export function threadIdOf(stdout: string): string {
  const match = /^thread ([0-9a-f-]{36}) /m.exec(stdout);
  if (match?.[1] === undefined) throw new Error(`no thread id in:\n${stdout}`);
  return match[1];
}

/** The stored thread, read with the real orchestrator: its state values and decision history. */
export async function storedThread(sqlitePath: string, threadId: string) {
  const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
  const orchestrator = new ReviewOrchestrator({ graph: buildProposalGraph(), checkpointer });
  try {
    return {
      values: await orchestrator.getState(threadId),
      history: await orchestrator.history(threadId),
      review: await orchestrator.getReview(threadId),
    };
  } finally {
    await orchestrator.close();
    await checkpointer.close();
  }
}
