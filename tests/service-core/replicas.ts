/** Replicas of the review desk as child processes (replicaWorker.ts), driven over stdin/stdout. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { OllamaServer } from "../doubles/index.js";
import { MODEL } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WORKER = join(ROOT, "tests/service-core/replicaWorker.ts");

export type Reply =
  | { id: number; ok: Record<string, string> }
  | { id: number; error: { code: string; details?: Record<string, unknown> } };

export interface Replica {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  request(body: Record<string, unknown>): Promise<Reply>;
  kill(): Promise<void>;
  stop(): Promise<void>;
  stderr(): string;
}

let nextId = 1;

export function startReplica(database: string, server: OllamaServer, jobs = true): Replica {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OLLAMA_BASE_URL: server.url,
    EVALGATE_MODEL: MODEL,
  };
  delete env.DATABASE_URL;
  const args = ["--import", "tsx", WORKER, database, ...(jobs ? [] : ["--no-jobs"])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const waiting = new Map<number, (reply: Reply) => void>();
  let resolveReady: () => void = () => undefined;
  let rejectReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    let end = stdout.indexOf("\n");
    while (end >= 0) {
      const line = stdout.slice(0, end);
      stdout = stdout.slice(end + 1);
      if (line === "ready") resolveReady();
      else if (line.startsWith("{")) {
        const reply = JSON.parse(line) as Reply;
        waiting.get(reply.id)?.(reply);
        waiting.delete(reply.id);
      }
      end = stdout.indexOf("\n");
    }
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  void exited.then(() =>
    rejectReady(new Error(`the replica ended before it was ready:\n${stderr}`)),
  );
  return {
    child,
    ready,
    stderr: () => stderr,
    request(body) {
      const id = nextId++;
      return new Promise<Reply>((resolve, reject) => {
        waiting.set(id, resolve);
        void exited.then(() => reject(new Error(`the replica ended before answering:\n${stderr}`)));
        child.stdin.write(`${JSON.stringify({ ...body, id })}\n`);
      });
    },
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}
