/**
 * What a broken or hostile model server can send, and what leaves the model layer: answers that
 * are not an Ollama stream become a typed error (never lines the Ollama client prints on stderr),
 * error bodies are quoted in part and redacted, and credentials echoed back never reach a message.
 */
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChatModelOptions, createChatModel } from "../../src/llm/chatModel.js";
import {
  ModelRequestError,
  ModelResponseError,
  ModelUnavailableError,
} from "../../src/llm/errors.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";

const MODEL = "judge-model:test";
const messages = [new SystemMessage("You judge plans."), new HumanMessage("Criterion: Aims")];

let server: OllamaServer;
const printed: unknown[][] = [];

beforeEach(async () => {
  server = await startOllamaServer({ models: [MODEL] });
  printed.length = 0;
  // Observes (and keeps off the test output) what any library prints while the call runs.
  for (const method of ["warn", "log", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
  }
});

afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
});

function judge(options: ChatModelOptions = {}, url = server.url) {
  return createChatModel(`ollama:${MODEL}`, {
    baseUrl: url,
    env: {},
    retryBaseDelayMs: 1,
    timeoutMs: 10_000,
    ...options,
  });
}

async function failure(options: ChatModelOptions = {}, url?: string): Promise<Error> {
  const error = await invokeJudge(judge(options, url), messages).catch((e: unknown) => e);
  if (!(error instanceof Error)) throw new Error("the call did not fail");
  return error;
}

/** One NDJSON chat chunk as Ollama streams it. */
function chunk(content: string, done = false): string {
  return JSON.stringify({
    model: MODEL,
    created_at: "2025-01-01T00:00:00Z",
    message: { role: "assistant", content },
    done,
    ...(done ? { done_reason: "stop", prompt_eval_count: 9, eval_count: 3 } : {}),
  });
}

describe("a 200 answer that is not an Ollama stream", () => {
  it("1 MB of text without a line break: a typed error quoting its start, nothing printed", async () => {
    server.setBehaviour({ rawBody: "<html>".padEnd(1_000_000, "z"), contentType: "text/html" });
    const error = await failure();
    expect(error).toBeInstanceOf(ModelResponseError);
    expect(error.message).toContain("the server's answer is not an Ollama stream");
    expect(error.message).toContain("line 1 is not a JSON object");
    expect(error.message).toContain("more characters not shown");
    expect(error.message.length).toBeLessThan(1_000);
    // An unusable answer is tried once more, and no more.
    expect(server.chatRequests()).toHaveLength(2);
    expect(printed).toEqual([]);
  });

  it("a line longer than 1 MiB is refused before the whole of it is read", async () => {
    server.setBehaviour({
      rawBody: `{"message":{"content":"${"a".repeat(2_000_000)}`,
      contentType: "application/x-ndjson",
    });
    const error = await failure({ maxRetries: 0 });
    expect(error).toBeInstanceOf(ModelResponseError);
    expect(error.message).toContain("is longer than 1,048,576 characters");
    expect(printed).toEqual([]);
  });

  it("a bad line after good chunks ends the answer with an error, not a partial answer", async () => {
    server.setBehaviour({
      rawBody: `${chunk('{"score": ')}\nnot json at all\n${chunk("0.7}", true)}\n`,
      contentType: "application/x-ndjson",
    });
    const error = await failure({ maxRetries: 0 });
    expect(error).toBeInstanceOf(ModelResponseError);
    expect(error.message).toContain('line 2 is not a JSON object: "not json at all"');
    expect(printed).toEqual([]);
  });

  it.each([
    ["an array", "[1, 2, 3]"],
    ["an object without a message", '{"status": "ok"}'],
    ["a string", '"hello"'],
  ])("a line that is %s is not an Ollama chat chunk", async (_what, line) => {
    server.setBehaviour({ rawBody: `${line}\n`, contentType: "application/x-ndjson" });
    const error = await failure({ maxRetries: 0 });
    expect(error).toBeInstanceOf(ModelResponseError);
    expect(error.message).toMatch(/line 1 is not (a JSON object|an Ollama chat chunk)/);
    expect(printed).toEqual([]);
  });

  it("blank lines between chunks are left out, and the answer is read", async () => {
    server.setBehaviour({
      rawBody: `${chunk("The plan ")}\n\n   \n${chunk("is sound.")}\r\n\n${chunk("", true)}\n\n`,
      contentType: "application/x-ndjson",
    });
    const answer = await invokeJudge(judge(), messages);
    expect(answer.text).toBe("The plan is sound.");
    expect(answer.usage.outputTokens).toBe(3);
    expect(printed).toEqual([]);
  });

  it("an error line of 1 MB inside the stream is quoted in part", async () => {
    server.setBehaviour({
      rawBody: `${JSON.stringify({ error: `runner failed: ${"x".repeat(1_000_000)}` })}\n`,
      contentType: "application/x-ndjson",
    });
    const error = await failure({ maxRetries: 0 });
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect(error.message).toContain("runner failed: xxx");
    expect(error.message.length).toBeLessThan(2_100);
    expect(printed).toEqual([]);
  });
});

describe("an error status with a hostile body", () => {
  it("10 MB of HTML with a 502: the status named, 500 characters quoted", async () => {
    server.setBehaviour({ status: 502, rawBody: `<html>${"q".repeat(10_000_000)}</html>` });
    const error = await failure({ maxRetries: 0 });
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect(error.message).toContain("HTTP 502");
    expect(error.message.length).toBeLessThan(1_000);
    expect(printed).toEqual([]);
  });

  it("a 401 quoting tokens and keys: the refusal named, every secret replaced", async () => {
    const secrets = [
      "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqdWRnZSJ9.c2lnbmF0dXJlLXNlY3JldA",
      "sk-live-4f9a8b7c6d5e4f3a2b1c",
      "x-api-key: k3y-f0r-the-pr0xy-0001",
      "api_key=plain-query-secret-9876",
      "Basic ZXZhbDpodW50ZXIy",
    ];
    server.setBehaviour({
      status: 401,
      errorMessage: `invalid credentials; you sent ${secrets.join(" and ")}`,
    });
    const error = await failure({ maxRetries: 0 });
    expect(error).toBeInstanceOf(ModelRequestError);
    expect(error.message).toContain("(HTTP 401)");
    expect(error.message).toContain("invalid credentials; you sent");
    for (const secret of [
      "eyJhbGciOiJIUzI1NiJ9",
      "sk-live",
      "k3y-f0r",
      "plain-query",
      "ZXZhbDpodW50ZXIy",
    ]) {
      expect(error.message).not.toContain(secret);
      expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(secret);
    }
  });

  it("a 401 echoing the Basic header made from the URL's credentials shows neither", async () => {
    const password = "pa55:w0rd@home";
    const url = `http://judge:${encodeURIComponent(password)}@127.0.0.1:${server.port}`;
    server.setBehaviour({ status: 401, errorMessage: "unauthorized", echoHeaders: true });
    const error = await failure({ maxRetries: 0 }, url);
    const encoded = Buffer.from(`judge:${password}`).toString("base64");
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Basic ${encoded}`);
    expect(error.message).toContain(
      `at http://***@127.0.0.1:${server.port} rejected the request (HTTP 401)`,
    );
    expect(error.message).toContain("Authorization: ***");
    expect(error.message).not.toContain(encoded);
    expect(error.message).not.toContain("w0rd");
  });
});
