import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ChatModelOptions, createChatModel } from "../../src/llm/chatModel.js";
import {
  ModelAbortedError,
  ModelRateLimitError,
  ModelResponseError,
  ModelTimeoutError,
  ModelUnavailableError,
} from "../../src/llm/errors.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { DEFAULT_JUDGE_ANSWER, type OllamaServer, startOllamaServer } from "../doubles/index.js";

const MODEL = "qwen2.5:7b-instruct";
const messages = [new SystemMessage("You are a strict judge."), new HumanMessage("Rate the aims.")];

let server: OllamaServer;

beforeEach(async () => {
  server = await startOllamaServer({ models: [MODEL, "llama3.2:3b"] });
});

afterEach(async () => {
  await server.close();
});

function judge(options: ChatModelOptions = {}, spec = `ollama:${MODEL}`) {
  return createChatModel(spec, {
    baseUrl: server.url,
    retryBaseDelayMs: 1,
    timeoutMs: 2_000,
    env: {},
    ...options,
  });
}

describe("ChatOllama wiring against the Ollama-protocol server", () => {
  it("sends the model, the messages and temperature 0.1 by default, and reads the answer", async () => {
    const answer = await invokeJudge(judge(), messages);

    expect(answer.text).toBe(DEFAULT_JUDGE_ANSWER);
    const [body] = server.chatRequests();
    expect(body?.model).toBe(MODEL);
    expect(body?.stream).toBe(true);
    expect(body?.options?.temperature).toBe(0.1);
    expect(body?.messages).toEqual([
      { role: "system", content: "You are a strict judge." },
      { role: "user", content: "Rate the aims." },
    ]);
    expect(answer.model).toBe(MODEL);
    expect(answer.provider).toBe("ollama");
    expect(answer.parameters).toMatchObject({ temperature: 0.1, baseUrl: server.url });
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("sends the format, seed, num_ctx and keep_alive when asked", async () => {
    const schema = {
      type: "object",
      properties: { score: { type: "number" } },
      required: ["score"],
    };
    await invokeJudge(
      judge({ format: schema, seed: 42, numCtx: 8192, keepAlive: "10m", temperature: 0 }),
      messages,
    );
    const [body] = server.chatRequests();
    expect(body?.format).toEqual(schema);
    expect(body?.keep_alive).toBe("10m");
    expect(body?.options).toMatchObject({ seed: 42, num_ctx: 8192, temperature: 0 });

    await invokeJudge(judge({ format: "json" }), messages);
    expect(server.chatRequests()[1]?.format).toBe("json");
  });

  it("reads token usage from prompt_eval_count / eval_count", async () => {
    server.setBehaviour({ promptEvalCount: 321, evalCount: 54 });
    const answer = await invokeJudge(judge(), messages);
    expect(answer.usage).toEqual({ inputTokens: 321, outputTokens: 54, totalTokens: 375 });
  });

  it("turns a hanging server into ModelTimeoutError, never an empty answer", async () => {
    // The server never answers: only the client's timeout can end the call. (The timeout leaves
    // the request time to reach the server even on a loaded machine, so it can count it.)
    server.setBehaviour({ hang: true });
    const error = await invokeJudge(judge({ timeoutMs: 1_000, maxRetries: 0 }), messages).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect((error as ModelTimeoutError).timeoutMs).toBe(1_000);
    expect((error as ModelTimeoutError).message).toContain(server.url);
    await server.waitFor((s) => s.clientDisconnects === 1);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("times out while the answer is streaming (slow chunks) with a typed error", async () => {
    // The first chunk is sent, then the answer stalls until the client gives up.
    server.setBehaviour({ hold: "mid-stream" });
    const error = await invokeJudge(judge({ timeoutMs: 1_000, maxRetries: 0 }), messages).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelTimeoutError);
    await server.waitFor((s) => s.clientDisconnects === 1);
  });

  it("retries a timeout, then answers", async () => {
    server.setBehaviour([{ hang: true }]);
    // Long enough for the second, prompt answer even on a loaded machine.
    const answer = await invokeJudge(judge({ timeoutMs: 1_000, maxRetries: 1 }), messages);
    expect(answer.text).toBe(DEFAULT_JUDGE_ANSWER);
    expect(server.chatRequests()).toHaveLength(2);
    expect(answer.attempts[0]?.error).toBeInstanceOf(ModelTimeoutError);
  });

  it("retries a 500 and then succeeds", async () => {
    server.setBehaviour([{ status: 500, errorMessage: "llama runner process has terminated" }]);
    const answer = await invokeJudge(judge(), messages);
    expect(answer.text).toBe(DEFAULT_JUDGE_ANSWER);
    expect(server.chatRequests()).toHaveLength(2);
    const first = answer.attempts[0]?.error;
    expect(first).toBeInstanceOf(ModelUnavailableError);
    expect((first as ModelUnavailableError).reason).toBe("server-error");
    expect((first as ModelUnavailableError).status).toBe(500);
  });

  it("honours Retry-After on a 429 before retrying", async () => {
    server.setBehaviour([{ status: 429, retryAfter: 1, errorMessage: "too many requests" }]);
    const answer = await invokeJudge(judge(), messages);
    expect(answer.text).toBe(DEFAULT_JUDGE_ANSWER);
    const [first, second] = server.requests.filter((request) => request.path === "/api/chat");
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    const error = answer.attempts[0]?.error;
    expect(error).toBeInstanceOf(ModelRateLimitError);
    expect((error as ModelRateLimitError).retryAfterMs).toBe(1_000);
  });

  it("caps a long Retry-After at maxRetryAfterMs", async () => {
    // Uncapped, the retry would wait two minutes, far beyond the test's own time limit.
    server.setBehaviour([{ status: 429, retryAfter: 120 }]);
    const answer = await invokeJudge(judge({ maxRetryAfterMs: 20 }), messages);
    expect(answer.text).toBe(DEFAULT_JUDGE_ANSWER);
    const limited = answer.attempts[0]?.error;
    expect(limited).toBeInstanceOf(ModelRateLimitError);
    expect((limited as ModelRateLimitError).retryAfterMs).toBe(120_000);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it("retries a connection reset (before the answer and mid-stream)", async () => {
    server.setBehaviour([{ reset: "before-response" }, { reset: "mid-stream" }]);
    const answer = await invokeJudge(judge(), messages);
    expect(answer.text).toBe(DEFAULT_JUDGE_ANSWER);
    expect(server.chatRequests()).toHaveLength(3);
    for (const attempt of answer.attempts.slice(0, 2)) {
      expect(attempt.error).toBeInstanceOf(ModelUnavailableError);
      expect((attempt.error as ModelUnavailableError).reason).toBe("connection-reset");
    }
  });

  it("treats an empty answer as ModelResponseError, retried once", async () => {
    server.setBehaviour({ answer: "" });
    const error = await invokeJudge(judge({ maxRetries: 3 }), messages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelResponseError);
    expect(server.chatRequests()).toHaveLength(2);

    server.setBehaviour([{}, {}, { answer: "" }]);
    const answer = await invokeJudge(judge(), messages);
    expect(answer.text).toBe(DEFAULT_JUDGE_ANSWER);
  });

  it("falls back to the next model when the first is not pulled, without retrying it", async () => {
    const answer = await invokeJudge(
      judge({ fallbackModels: ["ollama:llama3.2:3b"] }, "ollama:mistral-nemo:12b"),
      messages,
    );
    expect(answer.model).toBe("llama3.2:3b");
    expect(answer.spec).toBe("ollama:llama3.2:3b");
    expect(server.chatRequests().map((body) => body.model)).toEqual([
      "mistral-nemo:12b",
      "llama3.2:3b",
    ]);
    const missing = answer.attempts[0]?.error as ModelUnavailableError;
    expect(missing.reason).toBe("model-not-found");
    expect(missing.hint).toBe("ollama pull mistral-nemo:12b");
    expect(missing.message).toContain("ollama pull mistral-nemo:12b");
  });

  it("falls back when the first model keeps failing, after its retries", async () => {
    server.setBehaviour((_n, body) => (body.model === MODEL ? { status: 503 } : {}));
    const answer = await invokeJudge(
      judge({ maxRetries: 2, fallbackModels: ["ollama:llama3.2:3b"] }),
      messages,
    );
    expect(answer.model).toBe("llama3.2:3b");
    expect(server.chatRequests().map((body) => body.model)).toEqual([
      MODEL,
      MODEL,
      MODEL,
      "llama3.2:3b",
    ]);
  });

  it("throws the last classified error when every model fails", async () => {
    const error = await invokeJudge(
      judge({ fallbackModels: ["ollama:phi4:14b"] }, "ollama:gemma3:4b"),
      messages,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as ModelUnavailableError).model).toBe("phi4:14b");
    expect((error as ModelUnavailableError).transient).toBe(false);
  });

  it("cancels on the caller's signal with ModelAbortedError, without retrying", async () => {
    // The answer stalls after its first chunk; the caller cancels while it is held.
    server.setBehaviour({ hold: "mid-stream" });
    const controller = new AbortController();
    const pending = invokeJudge(judge({ timeoutMs: 60_000 }), messages, {
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await server.waitFor((s) => s.held === 1);
    controller.abort();
    expect(await pending).toBeInstanceOf(ModelAbortedError);
    await server.waitFor((s) => s.clientDisconnects === 1);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("names the server and `ollama serve` when nothing listens", async () => {
    const url = server.url;
    await server.close();
    server = await startOllamaServer();
    const error = await invokeJudge(
      createChatModel(`ollama:${MODEL}`, { baseUrl: url, maxRetries: 0, env: {} }),
      messages,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as ModelUnavailableError).reason).toBe("connection-refused");
    expect((error as ModelUnavailableError).message).toContain(url);
    expect((error as ModelUnavailableError).hint).toBe("ollama serve");
  });
});
