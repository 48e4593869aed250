import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createChatModel } from "../../src/llm/chatModel.js";
import {
  ModelAbortedError,
  ModelRequestError,
  ModelTimeoutError,
  type ModelUnavailableError,
} from "../../src/llm/errors.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { judgeAnswer, ScriptedChatModel } from "../doubles/index.js";

const ask = [new HumanMessage("Rate the budget section.")];

describe("invokeJudge with a supplied chat model", () => {
  it("returns text, usage, the answering model and the parameters", async () => {
    const model = new ScriptedChatModel({
      model: "judge-x",
      script: [judgeAnswer({ score: 0.7 })],
    });
    const answer = await invokeJudge(
      createChatModel(model, { env: {}, format: "json", timeoutMs: 5_000 }),
      [["system", "judge"], ask[0]!],
    );
    expect(JSON.parse(answer.text).score).toBe(0.7);
    expect(answer.model).toBe("judge-x");
    expect(answer.spec).toBe("scripted:judge-x");
    expect(answer.usage.inputTokens).toBe(5);
    expect(answer.usage.totalTokens).toBe(answer.usage.inputTokens + answer.usage.outputTokens);
    expect(answer.parameters).toMatchObject({ format: "json", timeoutMs: 5_000, maxRetries: 2 });
    expect(model.calls[0]?.options.format).toBe("json");
    expect(model.calls[0]?.messages[0]).toEqual({ role: "system", content: "judge" });
  });

  it("retries transient failures up to maxRetries, then falls back", async () => {
    const flaky = new ScriptedChatModel({
      model: "flaky",
      script: [new Error("socket hang up"), new Error("socket hang up"), new Error("again")],
    });
    const backup = new ScriptedChatModel({ model: "backup", script: ["ok"] });
    const answer = await invokeJudge(
      createChatModel(flaky, { env: {}, retryBaseDelayMs: 1, fallbackModels: [backup] }),
      ask,
    );
    expect(answer.text).toBe("ok");
    expect(answer.model).toBe("backup");
    expect(flaky.calls).toHaveLength(3);
    expect(answer.attempts).toHaveLength(4);
  });

  it("does not retry a non-transient failure", async () => {
    const broken = new ScriptedChatModel({
      script: [Object.assign(new Error("invalid api key"), { status: 401 }), "never"],
    });
    const error = await invokeJudge(createChatModel(broken, { env: {} }), ask).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelRequestError);
    expect(broken.calls).toHaveLength(1);
  });

  it("applies the timeout to any chat model", async () => {
    // Held and never released: only the timeout can end the call.
    const slow = new ScriptedChatModel({ script: [{ reply: "late", hold: true }] });
    const error = await invokeJudge(
      createChatModel(slow, { env: {}, timeoutMs: 50, maxRetries: 0 }),
      ask,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(slow.calls[0]?.hadSignal).toBe(true);
    expect(slow.aborted).toBe(1);
  });

  it("stops on the caller's signal during backoff, without falling back", async () => {
    const failing = new ScriptedChatModel({ responder: () => Promise.reject(new Error("down")) });
    const backup = new ScriptedChatModel({ script: ["ok"] });
    const controller = new AbortController();
    const pending = invokeJudge(
      createChatModel(failing, { env: {}, retryBaseDelayMs: 60_000, fallbackModels: [backup] }),
      ask,
      { signal: controller.signal },
    ).catch((e: unknown) => e);
    // The first call has failed; a minute's backoff is all that stands before the retry.
    await failing.waitFor((m) => m.calls.length === 1 && m.inFlight === 0);
    controller.abort();
    expect(await pending).toBeInstanceOf(ModelAbortedError);
    expect(failing.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(0);
  });

  it("classifies an unknown error as a transient unavailability of that model", async () => {
    const model = new ScriptedChatModel({ model: "m", script: [new Error("boom"), "fine"] });
    const answer = await invokeJudge(createChatModel(model, { env: {}, retryBaseDelayMs: 1 }), ask);
    expect(answer.text).toBe("fine");
    const first = answer.attempts[0]?.error as ModelUnavailableError;
    expect(first.reason).toBe("unknown");
    expect(first.message).toContain("scripted:m");
  });
});
