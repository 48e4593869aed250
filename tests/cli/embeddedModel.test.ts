/**
 * The embedded model end to end through the real command: the real node-llama-cpp runtime loads
 * a tiny GGUF written by the test helper, answers through the answer contract's grammar, and the
 * command prints a valid EvaluationResult. And the model choice: --model wins; with no model
 * named, Ollama when it has the default model, else the embedded model, downloaded from a file
 * server on 127.0.0.1 into the cache folder.
 *
 * On Linux x64 `npm ci` installs the runtime's CPU build: if it cannot load there, these tests
 * fail with the runtime's own message (they are never skipped).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OLLAMA_MODEL } from "../../src/llm/spec.js";
import { EvaluationResultSchema } from "../../src/scoring/result.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tinyGgufBytes, writeTinyGguf } from "../doubles/tinyGguf.js";
import { type ModelServer, startModelServer } from "../llm/embedded/modelServer.js";
import {
  closedPort,
  IFB_CATALOG,
  ifbJudge,
  runEvalgate,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

/** Spawned commands load a native runtime on a busy machine: give them time (never a bound). */
const EMBEDDED_TIMEOUT = 240_000;

/** One thread, a small context and short answers keep the tiny model quick. */
const TINY_RUNTIME = {
  EVALGATE_LLAMA_THREADS: "1",
  EVALGATE_LLAMA_CONTEXT: "4096",
  EVALGATE_LLAMA_MAX_TOKENS: "160",
};

const CONTENT = "Our project builds a community sensor network in Hamburg. Budget: 40k EUR.\n";

const temp = tempFolderForFile();
let tinyModel: string;
let content: string;
let files: ModelServer;
let ollama: OllamaServer;
let ollamaDown: string;

beforeAll(async () => {
  tinyModel = writeTinyGguf(join(temp.dir, "tiny.gguf"));
  content = await writeText(temp.dir, "content.md", CONTENT);
  files = await startModelServer(tinyGgufBytes());
  ollama = await startOllamaServer({ models: [DEFAULT_OLLAMA_MODEL], responder: ifbJudge });
  ollamaDown = `http://127.0.0.1:${await closedPort()}`;
});

afterAll(async () => {
  await files?.close();
  await ollama?.close();
});

function evaluate(extra: readonly string[], env: Record<string, string>, file = content) {
  return runEvalgate(["evaluate", file, "--catalog", IFB_CATALOG, "--format", "json", ...extra], {
    env: { ...TINY_RUNTIME, ...env },
    timeoutMs: EMBEDDED_TIMEOUT,
  });
}

function expectWellFormedJudgements(stdout: string) {
  const result = EvaluationResultSchema.parse(JSON.parse(stdout));
  expect(result.model?.startsWith("llama-cpp:")).toBe(true);
  const raw = (result.rawResponse ?? {}) as Record<string, unknown>;
  for (const criterion of result.criteria) {
    // Every answer came through the grammar: a JSON object the parser accepted.
    expect(criterion.judgeError).toBeUndefined();
    expect(() => JSON.parse(String(raw[criterion.id]))).not.toThrow();
  }
  expect(result.criteria.map((c) => c.id)).toEqual(["c1", "c2", "c3"]);
  return { result, raw };
}

describe.concurrent("the embedded model in `evalgate evaluate`", {
  timeout: EMBEDDED_TIMEOUT,
}, () => {
  it("--model llama-cpp:<file.gguf>: the runtime loads it and every answer follows the contract", async () => {
    const marked = await writeText(temp.dir, "marked.md", `${CONTENT}Run M-1.\n`);
    const trace = join(temp.dir, "marked-trace.jsonl");
    const run = await evaluate(
      ["--model", `llama-cpp:${tinyModel}`, "--trace", trace],
      { OLLAMA_BASE_URL: ollama.url },
      marked,
    );
    expect(run.stderr).not.toContain("evalgate:");
    expect([0, 1]).toContain(run.code);
    const { result, raw } = expectWellFormedJudgements(run.stdout);
    expect(result.model).toBe(`llama-cpp:${tinyModel}`);
    // c2 and c3 are on a 1–5 integer scale: the grammar allows nothing else.
    for (const id of ["c2", "c3"]) {
      const answer = JSON.parse(String(raw[id])) as { score: number };
      expect([1, 2, 3, 4, 5]).toContain(answer.score);
    }
    // A named GGUF file runs on the CPU as the chosen one does: 300 s per call unless --timeout.
    const traced = (await readFile(trace, "utf8")).trim().split("\n");
    expect(traced.length).toBeGreaterThan(0);
    for (const line of traced) {
      const { parameters } = JSON.parse(line) as { parameters: { timeoutMs: number } };
      expect(parameters.timeoutMs).toBe(300_000);
    }
    // --model wins: the Ollama server was not asked to judge.
    expect(ollama.chatRequests().filter((r) => JSON.stringify(r).includes("Run M-1"))).toEqual([]);
  });

  it("with no model named and no Ollama: downloads, verifies and uses the embedded model", async () => {
    const cache = join(temp.dir, "cache-down");
    const digest = createHash("sha256").update(tinyGgufBytes()).digest("hex");
    const run = await evaluate([], {
      OLLAMA_BASE_URL: ollamaDown,
      EVALGATE_CACHE_DIR: cache,
      EVALGATE_MODEL_URL: files.url,
      EVALGATE_MODEL_SHA256: digest,
    });
    expect(run.stderr).toContain(
      `Ollama is not running at ${ollamaDown}; using the embedded model tiny.gguf`,
    );
    expect(run.stderr).toContain(`downloading ${files.url}`);
    expect(run.stderr).not.toContain("evalgate:");
    const { result } = expectWellFormedJudgements(run.stdout);
    expect(result.model).toBe(`llama-cpp:${join(cache, "models", "tiny.gguf")}`);
    expect(existsSync(join(cache, "models", "tiny.gguf.part"))).toBe(false);
  });

  it("with no model named and Ollama up with the default model: Ollama judges", async () => {
    const run = await evaluate([], { OLLAMA_BASE_URL: ollama.url });
    expect(run.stderr).toContain(`using Ollama at ${ollama.url} (model ${DEFAULT_OLLAMA_MODEL})`);
    expect(run.code).toBe(0);
    const result = EvaluationResultSchema.parse(JSON.parse(run.stdout));
    expect(result.model).toBe(`ollama:${DEFAULT_OLLAMA_MODEL}`);
  });

  it("offline with no Ollama: names the URL and the alternatives, exit 2, nothing cached", async () => {
    const cache = join(temp.dir, "cache-offline");
    const unreachable = `http://127.0.0.1:${await closedPort()}/model.gguf`;
    const run = await evaluate([], {
      OLLAMA_BASE_URL: ollamaDown,
      EVALGATE_CACHE_DIR: cache,
      EVALGATE_MODEL_URL: unreachable,
      EVALGATE_MODEL_SHA256: "0".repeat(64),
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`cannot download the embedded model from ${unreachable}`);
    expect(run.stderr).toContain("ollama serve");
    expect(run.stderr).toContain("--model llama-cpp:<file.gguf>");
    expect(existsSync(cache)).toBe(false);
  });

  it("a cache folder in /proc, /sys or /dev, however reached, is refused before anything is made", async () => {
    // Node's recursive mkdir never returns in /proc: the run must end, with exit 2, asking nothing.
    const server = await startModelServer(tinyGgufBytes());
    const digest = createHash("sha256").update(tinyGgufBytes()).digest("hex");
    const link = join(temp.dir, "cache-link-to-proc");
    await symlink("/proc/self", link);
    const folders = [
      ["/proc/self", "/proc"],
      ["/sys/evalgate-cache", "/sys"],
      ["/dev/evalgate-cache/models", "/dev"],
      [join(link, "evalgate"), "/proc"],
    ] as const;
    for (const [folder, system] of folders) {
      const run = await evaluate([], {
        OLLAMA_BASE_URL: ollamaDown,
        EVALGATE_CACHE_DIR: folder,
        EVALGATE_MODEL_URL: server.url,
        EVALGATE_MODEL_SHA256: digest,
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(`the cache folder ${folder}`);
      expect(run.stderr).toContain(`is in ${system}: a folder of the system`);
      expect(run.stderr).toContain("set EVALGATE_CACHE_DIR to a folder on a disk");
      expect(run.stderr).toContain("[MODEL_DOWNLOAD_FAILED]");
    }
    expect(existsSync("/sys/evalgate-cache")).toBe(false);
    expect(existsSync("/dev/evalgate-cache")).toBe(false);
    expect(server.requests).toHaveLength(0);
    await server.close();
  });

  it("an OLLAMA_BASE_URL that cannot be used is refused, named, before any download or call", async () => {
    const cache = join(temp.dir, "cache-bad-list");
    const secret = "pw-9f31";
    const listed = await startOllamaServer({ models: [DEFAULT_OLLAMA_MODEL] });
    const port = listed.port;
    const lists = [
      // One server named twice (127.0.0.1 and localhost are this machine).
      [`http://ops:${secret}@127.0.0.1:${port},http://ops:${secret}@localhost:${port}`, "twice"],
      [`http://ops:${secret}@127.0.0.1:${port}#slots=x`, "slots=<1–256>"],
      [`ftp://ops:${secret}@127.0.0.1:${port}`, "http:// or https://"],
      [`,${listed.url}`, "none empty"],
    ] as const;
    for (const [list, why] of lists) {
      for (const named of [[], ["--model", `ollama:${DEFAULT_OLLAMA_MODEL}`]]) {
        const run = await evaluate(named, {
          OLLAMA_BASE_URL: list,
          EVALGATE_CACHE_DIR: cache,
          EVALGATE_MODEL_URL: files.url,
        });
        expect(run.code).toBe(2);
        expect(run.stdout).toBe("");
        expect(run.stderr).toContain("evalgate: OLLAMA_BASE_URL: ");
        expect(run.stderr).toContain(why);
        expect(run.stderr).toContain("[MODEL_OPTIONS_INVALID]");
        expect(run.stderr).not.toContain(secret);
        expect(run.stderr).not.toContain("embedded model");
      }
    }
    expect(existsSync(cache)).toBe(false);
    // Nothing was asked of the server the lists name.
    expect(listed.requests.length).toBe(0);
    await listed.close();
  });

  it("a runtime setting out of range is refused, named, before the model loads", async () => {
    const settings = [
      ["EVALGATE_LLAMA_SEQUENCES", "257", "an integer from 1 to 256"],
      ["EVALGATE_LLAMA_THREADS", "100000", "an integer from 1 to 512"],
      ["EVALGATE_LLAMA_MAX_TOKENS", "abc", "a positive integer"],
      ["EVALGATE_LLAMA_MAX_TOKENS", "-3", "a positive integer"],
    ] as const;
    for (const [name, value, range] of settings) {
      const run = await evaluate(["--model", `llama-cpp:${tinyModel}`], { [name]: value });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(`${name} must be ${range} (got "${value}")`);
      expect(run.stderr).toContain("[EMBEDDED_RUNTIME_UNAVAILABLE]");
    }
  });

  it("a file that is not a GGUF model: a clear message, exit 2", async () => {
    const bogus = join(temp.dir, "notAModel.gguf");
    await writeFile(bogus, "root:x:0:0 is not a model\n");
    const run = await evaluate(["--model", `llama-cpp:${bogus}`], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `cannot use the model file ${bogus}: it is not a GGUF model file (no GGUF signature at its start) [MODEL_FILE_UNUSABLE]`,
    );
    // What the file holds is never quoted, not even its first bytes.
    expect(run.stderr).not.toContain("root");
    // EVALGATE_MODEL may name the same file: it is the llama-cpp spec, not an Ollama model name.
    const fromEnv = await evaluate([], { EVALGATE_MODEL: `llama-cpp:${bogus}` });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain(`cannot use the model file ${bogus}: it is not a GGUF model`);
    // A file of the system is never read, not even its first bytes.
    const environ = await evaluate(["--model", "llama-cpp:/proc/self/environ"], {});
    expect(environ.code).toBe(2);
    expect(environ.stderr).toContain(
      "cannot use the model file /proc/self/environ: it is in /proc",
    );
    expect(environ.stderr).toContain("it is never read [MODEL_FILE_UNUSABLE]");
    expect(environ.stderr).not.toContain("GGUF magic");
  });
});
