/**
 * A password in OLLAMA_BASE_URL is sent as an `Authorization: Basic` header and never reaches a
 * message, a trace, a report or the checkpoint database, not even when the server echoes the
 * header back in an error; a huge error body is quoted only in part.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { boundedText, redactSecretText } from "../../src/redact.js";
import { openMigratedPool } from "../../src/store/connections.js";
import { IFB_CATALOG, runEvalgate, SPAWN_TIMEOUT, tempFolder, writeText } from "../cli/helpers.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { budgetCatalog } from "../engine/helpers.js";

const PASSWORD = "Tr0ub4dor-s3cret";
const MODEL = "qwen2.5:7b-instruct";
const CONTENT = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";

/** What the header carries: the password in base64, which must not leak either. */
const BASIC = `Basic ${Buffer.from(`evaluser:${PASSWORD}`).toString("base64")}`;
const ENCODED = BASIC.slice("Basic ".length);

let server: OllamaServer;
/** Lists the model, then answers every chat 401 with the request's headers in the body. */
let echoing: OllamaServer;
let temp: Awaited<ReturnType<typeof tempFolder>>;
let credentialUrl: string;
let echoingUrl: string;

beforeAll(async () => {
  server = await startOllamaServer({ models: [MODEL], requireAuthorization: BASIC });
  echoing = await startOllamaServer({
    models: [MODEL],
    behaviour: { status: 401, errorMessage: "unauthorized", echoHeaders: true },
  });
  temp = await tempFolder();
  credentialUrl = `http://evaluser:${PASSWORD}@127.0.0.1:${server.port}`;
  echoingUrl = `http://evaluser:${PASSWORD}@127.0.0.1:${echoing.port}`;
});
afterAll(async () => {
  await server.close();
  await echoing.close();
  await temp.remove();
});
afterEach(() => server.setBehaviour({}));

function judge(url: string) {
  return createChatModel(`ollama:${MODEL}`, {
    env: { OLLAMA_BASE_URL: url },
    maxRetries: 0,
    timeoutMs: 10_000,
  });
}

/** Every message, name and string field of an error and its causes. */
function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    parts.push(String(current));
    if (typeof current === "object") {
      parts.push(JSON.stringify(current, Object.getOwnPropertyNames(current)) ?? "");
      current = (current as { cause?: unknown }).cause;
    } else break;
  }
  return parts.join("\n");
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("redaction", () => {
  it("takes the credentials out of a URL and out of any text", () => {
    expect(redactSecretText(`http://evaluser:${PASSWORD}@host:11434/x`)).toBe(
      "http://***@host:11434/x",
    );
    expect(redactSecretText("http://127.0.0.1:11434")).toBe("http://127.0.0.1:11434");
    expect(redactSecretText(`failed: GET http://u:${PASSWORD}@h/api and https://tok@h2/`)).toBe(
      "failed: GET http://***@h/api and https://***@h2/",
    );
  });

  it("quotes at most 500 characters of a body, naming how much was left out", () => {
    const quoted = boundedText("x".repeat(1_000_000));
    expect(quoted.length).toBeLessThanOrEqual(550);
    expect(quoted).toContain("999,500 more characters");
  });
});

describe("a password in OLLAMA_BASE_URL", () => {
  it("reaches the server as a Basic header, and no result or trace", async () => {
    const traceFile = join(temp.dir, "trace-ok.jsonl");
    const before = server.requests.length;
    const result = await evaluateContent({
      content: CONTENT,
      catalog: await budgetCatalog(),
      model: judge(credentialUrl),
      traceFile,
    });
    expect(result.criteria.every((criterion) => criterion.judgeError === undefined)).toBe(true);
    const sent = server.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((request) => request.headers.authorization === BASIC)).toBe(true);
    const written = `${JSON.stringify(result)}\n${await readFile(traceFile, "utf8")}`;
    expect(written).toContain("http://***@127.0.0.1");
    expect(written).not.toContain(PASSWORD);
    expect(written).not.toContain(ENCODED);
  });

  it("is in no library error and no trace when the server echoes the header", async () => {
    const traceFile = join(temp.dir, "trace.jsonl");
    const error = await evaluateContent({
      content: CONTENT,
      catalog: await budgetCatalog(),
      model: judge(echoingUrl),
      traceFile,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(errorText(error)).toContain("HTTP 401");
    expect(errorText(error)).toContain("127.0.0.1");
    for (const secret of [PASSWORD, ENCODED]) {
      expect(errorText(error)).not.toContain(secret);
      expect(await readFile(traceFile, "utf8")).not.toContain(secret);
    }
    // The echo did reach the client: it is the redaction that keeps it out.
    expect(echoing.requests.some((r) => r.headers.authorization === BASIC)).toBe(true);
  });

  it("is in no state, review or byte of the SQLite checkpoint file", async () => {
    const cwd = join(temp.dir, "graph");
    const checkpointer = await createCheckpointer({ cwd, env: {} });
    try {
      const reviews = new ReviewOrchestrator({
        graph: buildEvaluationGraph({ model: judge(echoingUrl) }),
        checkpointer,
      });
      const started = await reviews.start({ content: CONTENT, contentType: "problem_statement" });
      expect(started.review?.type).toBe("evaluation_error");
      expect(JSON.stringify(started)).not.toContain(PASSWORD);
      expect(JSON.stringify(started)).not.toContain(ENCODED);
    } finally {
      await checkpointer.close();
    }
    const files = await filesUnder(cwd);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = await readFile(file);
      expect(bytes.includes(PASSWORD)).toBe(false);
      expect(bytes.includes(ENCODED)).toBe(false);
    }
  });

  it("is not printed by the command", { timeout: SPAWN_TIMEOUT }, async () => {
    const content = await writeText(temp.dir, "draft.md", CONTENT);
    const run = await runEvalgate(["evaluate", content, "--catalog", IFB_CATALOG], {
      env: { OLLAMA_BASE_URL: echoingUrl, EVALGATE_MODEL: `ollama:${MODEL}` },
    });
    expect(run.code).not.toBe(0);
    const printed = `${run.stdout}\n${run.stderr}`;
    expect(printed).toContain("127.0.0.1");
    expect(printed).not.toContain(PASSWORD);
    expect(printed).not.toContain(ENCODED);
  });
});

describe("a password in DATABASE_URL written without percent-encoding", () => {
  const url = `postgres://app:p#${PASSWORD}?x@127.0.0.1:1/reviews`;

  it("is in no error of the checkpointer or the review store, nor in their causes", async () => {
    for (const open of [
      () => createCheckpointer({ databaseUrl: url }),
      () => openMigratedPool(url, 1),
    ]) {
      const error = await open().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(errorText(error)).toContain("postgres://***@127.0.0.1:1/reviews");
      expect(errorText(error)).not.toContain(PASSWORD);
      expect(inspect(error, { depth: 8 })).not.toContain(PASSWORD);
    }
  });

  it("is not printed by the command", { timeout: SPAWN_TIMEOUT }, async () => {
    for (const args of [
      ["reviews", "--database-url", url],
      ["rubrics", "list"],
    ]) {
      const run = await runEvalgate(args, { env: { DATABASE_URL: url } });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("STORE_OPEN_FAILED");
      expect(`${run.stdout}\n${run.stderr}`).not.toContain(PASSWORD);
    }
  });
});

describe("an error body of 1 MB", () => {
  it("is quoted in at most 500 characters", async () => {
    server.setBehaviour({ status: 500, errorMessage: `<html>${"y".repeat(1_000_000)}</html>` });
    const error = await evaluateContent({
      content: CONTENT,
      catalog: await budgetCatalog(),
      model: judge(credentialUrl),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain("HTTP 500");
    expect(message).toContain("more characters not shown");
    expect(message.length).toBeLessThan(1_000);
  });
});
