import { describe, expect, it } from "vitest";
import { classifyModelError, parseRetryAfter } from "../../src/llm/classifyError.js";
import {
  ModelAbortedError,
  ModelContentPolicyError,
  ModelRateLimitError,
  ModelRequestError,
  ModelTimeoutError,
  ModelUnavailableError,
} from "../../src/llm/errors.js";
import { retryDelayMs } from "../../src/llm/invoke.js";

const ollama = { provider: "ollama", model: "qwen2.5:7b", baseUrl: "http://127.0.0.1:11434" };

function networkError(code: string): Error {
  const cause = Object.assign(new Error("socket"), { code });
  return new TypeError("fetch failed", { cause });
}

describe("classifyModelError", () => {
  it("classifies network failures by their code, with Ollama hints", () => {
    const refused = classifyModelError(networkError("ECONNREFUSED"), ollama);
    expect(refused).toBeInstanceOf(ModelUnavailableError);
    expect((refused as ModelUnavailableError).reason).toBe("connection-refused");
    expect(refused.message).toContain("http://127.0.0.1:11434");
    expect(refused.message).toContain("ollama serve");
    expect(refused.transient).toBe(true);

    const reset = classifyModelError(networkError("ECONNRESET"), ollama);
    expect((reset as ModelUnavailableError).reason).toBe("connection-reset");
    expect(reset.transient).toBe(true);
  });

  it("classifies HTTP statuses from SDK errors (status, status_code, headers)", () => {
    const limited = classifyModelError(
      Object.assign(new Error("Too Many Requests"), {
        status: 429,
        headers: new Headers({ "retry-after": "3" }),
      }),
    );
    expect(limited).toBeInstanceOf(ModelRateLimitError);
    expect((limited as ModelRateLimitError).retryAfterMs).toBe(3_000);

    const server = classifyModelError(Object.assign(new Error("boom"), { status_code: 502 }));
    expect((server as ModelUnavailableError).reason).toBe("server-error");
    expect(server.transient).toBe(true);

    const missing = classifyModelError(
      Object.assign(new Error('model "x" not found, try pulling it first'), { status_code: 404 }),
      { ...ollama, model: "x" },
    );
    expect((missing as ModelUnavailableError).reason).toBe("model-not-found");
    expect((missing as ModelUnavailableError).hint).toBe("ollama pull x");
    expect(missing.transient).toBe(false);

    const unauthorised = classifyModelError(Object.assign(new Error("bad key"), { status: 401 }));
    expect(unauthorised).toBeInstanceOf(ModelRequestError);
    expect(unauthorised.transient).toBe(false);

    const policy = classifyModelError(
      Object.assign(new Error("The response was filtered due to our content management policy"), {
        status: 400,
      }),
    );
    expect(policy).toBeInstanceOf(ModelContentPolicyError);
    expect(policy.transient).toBe(false);
  });

  it("classifies aborts: a timeout is transient, a cancellation is not", () => {
    const timeout = classifyModelError(
      new DOMException("The operation was aborted due to timeout", "TimeoutError"),
      { ...ollama, timeoutMs: 250 },
    );
    expect(timeout).toBeInstanceOf(ModelTimeoutError);
    expect((timeout as ModelTimeoutError).timeoutMs).toBe(250);
    expect(timeout.transient).toBe(true);

    const aborted = classifyModelError(new DOMException("aborted", "AbortError"));
    expect(aborted).toBeInstanceOf(ModelAbortedError);
    expect(aborted.transient).toBe(false);
  });

  it("passes typed errors through and keeps the original as cause", () => {
    const typed = new ModelTimeoutError(10, ollama);
    expect(classifyModelError(typed)).toBe(typed);
    const original = new Error("Did not receive done or success response in stream.");
    const incomplete = classifyModelError(original, ollama);
    expect((incomplete as ModelUnavailableError).reason).toBe("incomplete-response");
    expect(incomplete.cause).toBe(original);
  });

  it("transient: refused, reset, 5xx, 429, timeout yes; model not found, 4xx no", () => {
    const isTransient = (error: unknown) => classifyModelError(error).transient;
    expect(isTransient(networkError("ECONNREFUSED"))).toBe(true);
    expect(isTransient(networkError("ECONNRESET"))).toBe(true);
    expect(isTransient(Object.assign(new Error("x"), { status: 503 }))).toBe(true);
    expect(isTransient(Object.assign(new Error("x"), { status: 429 }))).toBe(true);
    expect(isTransient(new DOMException("t", "TimeoutError"))).toBe(true);
    expect(isTransient(Object.assign(new Error("model 'm' not found"), { status: 404 }))).toBe(
      false,
    );
    expect(isTransient(Object.assign(new Error("bad request"), { status: 400 }))).toBe(false);
  });
});

describe("retry timing", () => {
  it("parses Retry-After as seconds, an HTTP date or retry-after-ms", () => {
    expect(parseRetryAfter("2")).toBe(2_000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(parseRetryAfter(undefined, "750")).toBe(750);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:04 GMT", undefined, now)).toBe(4_000);
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  it("backs off exponentially, capped, and waits at least a capped Retry-After", () => {
    const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 350, maxRetryAfterMs: 2_000 };
    const failure = new ModelTimeoutError(1, {});
    expect([1, 2, 3, 4].map((retry) => retryDelayMs(policy, retry, failure))).toEqual([
      100, 200, 350, 350,
    ]);
    expect(retryDelayMs(policy, 1, new ModelRateLimitError(1_500, "slow down", {}))).toBe(1_500);
    expect(retryDelayMs(policy, 1, new ModelRateLimitError(60_000, "slow down", {}))).toBe(2_000);
  });
});
