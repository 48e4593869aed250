import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { RunnableSequence } from "@langchain/core/runnables";
import { describe, expect, it, vi } from "vitest";
import { judgeAnswer, ScriptExhaustedError, ScriptedChatModel } from "../doubles/index.js";

describe("ScriptedChatModel (test double)", () => {
  it("replays the script in order and records each call", async () => {
    const model = new ScriptedChatModel({
      model: "judge-a",
      script: ["first answer", (messages, n) => `call ${n} saw ${messages.length} messages`],
    });
    const first = await model.invoke([new SystemMessage("be strict"), new HumanMessage("rate it")]);
    const second = await model.invoke("again please");

    expect(first.text).toBe("first answer");
    expect(second.text).toBe("call 2 saw 1 messages");
    expect(model.calls[0]?.messages).toEqual([
      { role: "system", content: "be strict" },
      { role: "user", content: "rate it" },
    ]);
    expect(first.usage_metadata).toMatchObject({
      input_tokens: 4,
      output_tokens: 2,
      total_tokens: 6,
    });
    expect(first.response_metadata.model_name).toBe("judge-a");
    await expect(model.invoke("third")).rejects.toBeInstanceOf(ScriptExhaustedError);
  });

  it("throws scripted errors, so .withRetry() moves on to the next step", async () => {
    // LangChain's retry waits 1–2 s before retrying (p-retry, minTimeout 1000): fake the clock.
    vi.useFakeTimers();
    try {
      const model = new ScriptedChatModel({
        script: [new Error("flaky"), judgeAnswer({ score: 0.3 })],
      });
      const pending = model.withRetry({ stopAfterAttempt: 2 }).invoke("rate");
      await vi.advanceTimersByTimeAsync(2_500);
      const answer = await pending;
      expect(JSON.parse(answer.text)).toMatchObject({ score: 0.3, hits: expect.any(Array) });
      expect(model.calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("records bound call options and works inside a RunnableSequence", async () => {
    const model = new ScriptedChatModel({
      responder: (messages) => messages.at(-1)?.content ?? "",
    });
    const chain = RunnableSequence.from([
      ChatPromptTemplate.fromMessages([["human", "Echo {word}"]]),
      model.withConfig({ format: "json" }),
      new StringOutputParser(),
    ]);
    expect(await chain.invoke({ word: "grant" })).toBe("Echo grant");
    expect(model.calls[0]?.options.format).toBe("json");
  });

  it("delays an answer and lets the signal cancel the delay", async () => {
    const model = new ScriptedChatModel({ script: [{ reply: "late", delayMs: 5_000 }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 20);
    const started = Date.now();
    await expect(model.invoke("x", { signal: controller.signal })).rejects.toThrow("stop");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(model.calls[0]?.hadSignal).toBe(true);
  });
});
