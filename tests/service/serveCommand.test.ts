/**
 * `evalgate serve` as a real process: it listens, answers health and readiness on the data
 * folder's SQLite store, and on SIGTERM shuts down gracefully (exit code 0, the store closed).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_OLLAMA_MODEL } from "../../src/llm/spec.js";
import { openReviewStore } from "../../src/store/index.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { addReviewer, MODEL, RFP } from "../service-core/helpers.js";
import { callApi, type ServeProcess, startServe } from "../service-core/serveProcess.js";

const BIN = fileURLToPath(new URL("../../bin/evalgate.mjs", import.meta.url));

let child: ChildProcess | undefined;
let temp: ReturnType<typeof tempDir> | undefined;

let ollama: OllamaServer | undefined;
const serves: ServeProcess[] = [];

afterEach(async () => {
  if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(serves.splice(0).map((serve) => serve.kill()));
  temp?.remove();
  await ollama?.close();
});

function firstLine(stream: NodeJS.ReadableStream, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = "";
    stream.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = pattern.exec(text);
      if (match !== null) resolve(match);
    });
    stream.on("end", () => reject(new Error(`the output ended without ${pattern}: ${text}`)));
  });
}

describe("evalgate serve", () => {
  it("serves on the data folder and stops gracefully on SIGTERM", async () => {
    temp = tempDir("evalgate-serve-");
    const data = join(temp.dir, "data");
    // serve checks its model at start-up: an Ollama stand-in with the default model.
    ollama = await startOllamaServer({ models: [DEFAULT_OLLAMA_MODEL] });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      OLLAMA_BASE_URL: ollama.url,
      DATABASE_URL: "",
    };
    delete env.EVALGATE_MODEL;
    child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--data", data], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const exited = new Promise<number | null>((resolve) => child!.on("exit", resolve));
    const [, url] = await firstLine(child.stdout!, /review service on (http:\/\/\S+)/);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    const ready = await fetch(`${url}/api/ready`);
    expect(await ready.json()).toEqual({ ready: true });
    expect(existsSync(join(data, "checkpoints.sqlite"))).toBe(true);
    expect((await fetch(`${url}/api/reviews`)).status).toBe(401);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toContain("stopped");
  }, 120_000);

  it("on a port already taken says so and how to choose another, exit 2 (never a bare EADDRINUSE)", async () => {
    temp = tempDir("evalgate-serve-");
    ollama = await startOllamaServer({ models: [DEFAULT_OLLAMA_MODEL] });
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        OLLAMA_BASE_URL: ollama.url,
        DATABASE_URL: "",
      };
      delete env.EVALGATE_MODEL;
      const db = join(temp.dir, "checkpoints.sqlite");
      const args = [BIN, "serve", "--host", "127.0.0.1", "--port", String(port), "--db", db];
      child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      const code = await new Promise<number | null>((resolve) => child!.on("exit", resolve));
      expect(code).toBe(2);
      expect(stderr.trim().split("\n").at(-1)).toBe(
        `evalgate: port ${port} is in use on 127.0.0.1; choose another with --port [COMMAND_INVALID]`,
      );
      expect(stderr).not.toContain("EADDRINUSE");
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 120_000);
});

describe("evalgate serve stopping while a thread runs", () => {
  it("cuts the run short on SIGTERM (exit 0, the model call dropped), and a restart takes the thread on to its review", async () => {
    temp = tempDir("evalgate-serve-stop-");
    const db = join(temp.dir, "checkpoints.sqlite");
    const store = await openReviewStore({ sqlitePath: db, env: {} });
    const token = await addReviewer(store, "ana", "admin").finally(() => store.close());
    ollama = await startOllamaServer({
      models: [MODEL],
      responder: ollamaProposalResponder(0.85),
      behaviour: { hold: "before-response" },
    });
    const first = await startServe({ database: db, ollamaUrl: ollama.url, model: MODEL });
    serves.push(first);
    const started = await callApi(first.url, token, "POST", "/api/proposals", {
      rfp: RFP,
      applicant: "A tenants' union.",
    });
    expect(started.status).toBe(202);
    const { threadId } = started.body as { threadId: string };
    // The thread is writing its first stage: its model call waits at the gate.
    await ollama.waitFor((server) => server.held >= 1);

    // Before: the service waited for the held call (it never ends), so it never stopped.
    expect(await first.stop()).toBe(0);
    expect(first.stderr()).toContain("evalgate serve: stopped");
    await ollama.waitFor((server) => server.clientDisconnects >= 1);

    // Nothing runs it now: the index says it waits for the service, not that it is worked on.
    const index = await openReviewStore({ sqlitePath: db, env: {} });
    try {
      expect((await index.thread(threadId))?.status).toBe("queued");
      expect((await index.eventsAfter(threadId, 0, 500)).at(-1)).toMatchObject({
        type: "queued",
        message:
          "the service stopped during this run; it goes on from its last finished step when the service starts again",
      });
    } finally {
      await index.close();
    }
    const { DATABASE_URL: _url, ...env } = process.env;
    const listed = spawnSync(process.execPath, [BIN, "reviews", "--db", db], {
      encoding: "utf8",
      env,
    });
    expect(listed.status, listed.stderr).toBe(0);
    const row = listed.stdout.split("\n").find((line) => line.startsWith(threadId));
    expect(row).toContain("waiting to be worked on");
    expect(row).not.toContain("being worked on");

    ollama.setBehaviour({});
    ollama.release();
    const second = await startServe({ database: db, ollamaUrl: ollama.url, model: MODEL });
    serves.push(second);
    let status = "";
    while (status !== "waiting") {
      const reply = await callApi(second.url, token, "GET", `/api/threads/${threadId}`);
      status = (reply.body as { status: string }).status;
      expect(["queued", "running", "waiting"]).toContain(status);
      if (status !== "waiting") await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await second.stop()).toBe(0);
    const after = await openReviewStore({ sqlitePath: db, env: {} });
    try {
      expect((await after.thread(threadId))?.status).toBe("waiting");
      expect(await after.pendingOf(threadId)).toHaveLength(1);
    } finally {
      await after.close();
    }
  }, 180_000);
});
