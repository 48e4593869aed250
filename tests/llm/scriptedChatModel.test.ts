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
    const model = new ScriptedChatModel({ script: [{ reply: "late", delayMs: 600_000 }] });
    const controller = new AbortController();
    const pending = model.invoke("x", { signal: controller.signal });
    await model.waitFor((m) => m.inFlight === 1);
    controller.abort(new Error("stop"));
    // The delay would answer "late"; the rejection with the abort reason is the cancellation.
    await expect(pending).rejects.toThrow("stop");
    expect(model.calls[0]?.hadSignal).toBe(true);
    expect(model.aborted).toBe(1);
    expect(model.inFlight).toBe(0);
  });

  it("holds calls at the gate, counts them in flight, and releases the longest-held first", async () => {
    const model = new ScriptedChatModel({ hold: true, responder: (_m, n) => `answer ${n}` });
    const answers = [1, 2, 3].map(() => model.invoke("x").then((m) => m.text));
    const order: string[] = [];
    for (const answer of answers) answer.then((text) => order.push(text));
    await model.waitFor((m) => m.held === 3);
    expect(model.inFlight).toBe(3);
    model.release(1);
    await answers[0];
    expect(model.held).toBe(2);
    model.release();
    expect(await Promise.all(answers)).toEqual(["answer 1", "answer 2", "answer 3"]);
    expect(order[0]).toBe("answer 1");
    expect(model.maxInFlight).toBe(3);
    expect(model.inFlight).toBe(0);
  });

  it("a held step waits for release or its signal; other steps answer at once", async () => {
    const model = new ScriptedChatModel({ script: [{ reply: "held", hold: true }, "free"] });
    const controller = new AbortController();
    const held = model.invoke("a", { signal: controller.signal });
    await model.waitFor((m) => m.held === 1);
    expect((await model.invoke("b")).text).toBe("free");
    controller.abort(new Error("gave up"));
    await expect(held).rejects.toThrow("gave up");
    expect(model.held).toBe(0);
    expect(model.aborted).toBe(1);
  });
});
