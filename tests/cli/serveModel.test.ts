/**
 * `evalgate serve` checks its model at start-up the way every command does: a named model that is
 * not there stops it with exit code 2 and the one message (nothing listens); with no model named,
 * Ollama when it has the default model, else the embedded model (a tiny GGUF served from
 * 127.0.0.1 here), and then it serves. And the store options: --db like every other command,
 * --data still working with a notice.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OLLAMA_MODEL } from "../../src/llm/spec.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tinyGgufBytes } from "../doubles/tinyGguf.js";
import { type ModelServer, startModelServer } from "../llm/embedded/modelServer.js";
import { BIN, closedPort, runEvalgate, tempFolderForFile } from "./helpers.js";

/** Loading the native runtime on a busy machine takes a while: time, never a bound. */
const EMBEDDED_TIMEOUT = 240_000;

const temp = tempFolderForFile();
let ollama: OllamaServer;
let files: ModelServer;
let ollamaDown: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ollama = await startOllamaServer({ models: [DEFAULT_OLLAMA_MODEL] });
  files = await startModelServer(tinyGgufBytes());
  ollamaDown = `http://127.0.0.1:${await closedPort()}`;
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

afterAll(async () => {
  await ollama?.close();
  await files?.close();
});

/** The child's environment: ours without model, database and npm settings, plus `extra`. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(base)) {
    if (key.startsWith("npm_") || key === "EVALGATE_MODEL" || key === "DATABASE_URL") {
      delete base[key];
    }
  }
  return { ...base, ...extra };
}

/** Starts `evalgate serve …`; resolves with its URL once it listens, and its stderr so far. */
function serve(args: readonly string[], extra: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", ...args], {
    cwd: temp.dir,
    env: env(extra),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /review service on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.on("exit", () => reject(new Error(`serve ended before listening:\n${stderr}`)));
  });
  return { child, listening, exited, stderr: () => stderr };
}

async function stop(started: ReturnType<typeof serve>): Promise<number | null> {
  started.child.kill("SIGTERM");
  return started.exited;
}

describe("evalgate serve checks its model at start-up", () => {
  it("a named model with Ollama down: exit code 2, the message, nothing served", async () => {
    const run = await runEvalgate(["serve", "--port", "0", "--db", join(temp.dir, "a.sqlite")], {
      cwd: temp.dir,
      env: { OLLAMA_BASE_URL: ollamaDown, EVALGATE_MODEL: "qwen2.5:7b-instruct" },
    });
    expect(run.code).toBe(2);
    expect(run.stdout).not.toContain("review service on");
    expect(run.stderr).toContain(`evalgate: Ollama is not reachable at ${ollamaDown}`);
    expect(run.stderr).toContain("`ollama serve`");
    expect(existsSync(join(temp.dir, "a.sqlite"))).toBe(false);
  });

  it("a model Ollama lacks: exit code 2 with `ollama pull`", async () => {
    const run = await runEvalgate(
      [
        "serve",
        "--port",
        "0",
        "--model",
        "ollama:not-pulled:1b",
        "--db",
        join(temp.dir, "b.sqlite"),
      ],
      { cwd: temp.dir, env: { OLLAMA_BASE_URL: ollama.url } },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('model "not-pulled:1b" is not pulled on the Ollama server');
    expect(run.stderr).toContain("`ollama pull not-pulled:1b`");
  });

  it("no model named, Ollama with the default model: says so and serves; --data still works, with a notice", async () => {
    const data = join(temp.dir, "data");
    const started = serve(["--data", data], { OLLAMA_BASE_URL: ollama.url });
    const url = await started.listening;
    expect((await fetch(`${url}/api/ready`)).status).toBe(200);
    expect(started.stderr()).toContain(
      `using Ollama at ${ollama.url} (model ${DEFAULT_OLLAMA_MODEL})`,
    );
    expect(started.stderr()).toContain(
      `evalgate: --data is deprecated: use --db ${join(data, "checkpoints.sqlite")}`,
    );
    expect(existsSync(join(data, "checkpoints.sqlite"))).toBe(true);
    expect(await stop(started)).toBe(0);
  });

  it("refuses --data beside --db, and --db beside --database-url", async () => {
    const both = await runEvalgate(["serve", "--data", "x", "--db", "y.sqlite"], {
      cwd: temp.dir,
      env: { OLLAMA_BASE_URL: ollama.url },
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--data is the old name of --db <folder>/checkpoints.sqlite");
    const two = await runEvalgate(
      ["serve", "--db", "y.sqlite", "--database-url", "postgres://u:secret@127.0.0.1/db"],
      { cwd: temp.dir, env: { OLLAMA_BASE_URL: ollama.url } },
    );
    expect(two.code).toBe(2);
    expect(two.stderr).toContain("give --db <file> or --database-url <url>, not both");
    expect(two.stderr).not.toContain("secret");
  });

  it(
    "no model named and no Ollama: the embedded model, then it serves",
    async () => {
      const cache = join(temp.dir, "cache");
      const digest = createHash("sha256").update(tinyGgufBytes()).digest("hex");
      const started = serve(["--db", join(temp.dir, "embedded.sqlite")], {
        OLLAMA_BASE_URL: ollamaDown,
        EVALGATE_CACHE_DIR: cache,
        EVALGATE_MODEL_URL: files.url,
        EVALGATE_MODEL_SHA256: digest,
        EVALGATE_LLAMA_THREADS: "1",
        EVALGATE_LLAMA_CONTEXT: "4096",
      });
      const url = await started.listening;
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect(started.stderr()).toContain(
        `Ollama is not running at ${ollamaDown}; using the embedded model tiny.gguf`,
      );
      expect(existsSync(join(cache, "models", "tiny.gguf"))).toBe(true);
      // SIGTERM still shuts it down gracefully with the embedded runtime loaded.
      expect(await stop(started)).toBe(0);
      expect(started.stderr()).toContain("evalgate serve: stopped");

      // And so does Ctrl-C (SIGINT), with the model now in the cache: a graceful stop.
      const again = serve(["--db", join(temp.dir, "embedded.sqlite")], {
        OLLAMA_BASE_URL: ollamaDown,
        EVALGATE_CACHE_DIR: cache,
        EVALGATE_MODEL_URL: files.url,
        EVALGATE_MODEL_SHA256: digest,
        EVALGATE_LLAMA_THREADS: "1",
        EVALGATE_LLAMA_CONTEXT: "4096",
      });
      await again.listening;
      again.child.kill("SIGINT");
      expect(await again.exited).toBe(0);
      expect(again.stderr()).toContain("evalgate serve: stopped");
    },
    EMBEDDED_TIMEOUT,
  );
});
