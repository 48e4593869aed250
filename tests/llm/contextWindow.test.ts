import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { type ChatModelOptions, createChatModel } from "../../src/llm/chatModel.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";

const MODEL = "qwen2.5:7b-instruct";

let server: OllamaServer;

beforeEach(async () => {
  server = await startOllamaServer({ models: [MODEL] });
});

afterEach(async () => {
  await server.close();
});

function judge(options: ChatModelOptions = {}) {
  return createChatModel(`ollama:${MODEL}`, {
    baseUrl: server.url,
    retryBaseDelayMs: 1,
    timeoutMs: 5_000,
    env: {},
    ...options,
  });
}

/** A prompt of about `chars` characters. */
function promptOf(chars: number) {
  const words = "The budget lists staff, equipment and travel costs per year. ";
  return [
    new SystemMessage("You are a strict judge."),
    new HumanMessage(words.repeat(Math.ceil(chars / words.length)).slice(0, chars)),
  ];
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("the call was expected to fail");
}

describe("Ollama options sized for the judge", () => {
  it("keeps the model loaded across an evaluation (keep_alive 30m unless told otherwise)", async () => {
    await invokeJudge(judge(), promptOf(200));
    expect(server.chatRequests()[0]?.keep_alive).toBe("30m");
  });

  it("asks for a window of 8192 tokens for a short prompt, more for a long one", async () => {
    await invokeJudge(judge(), promptOf(200));
    // about 12,000 tokens at 3 characters a token (a generous estimate): the 16,384 window.
    await invokeJudge(judge(), promptOf(36_000));
    const windows = server.chatRequests().map((body) => body.options?.num_ctx);
    expect(windows).toEqual([8192, 16384]);
  });

  it("refuses a prompt the largest automatic window cannot hold, naming the sizes, unsent", async () => {
    const error = await rejection(invokeJudge(judge(), promptOf(120_000)));
    expect(isEvalgateError(error, "MODEL_REQUEST_REJECTED")).toBe(true);
    const message = error instanceof Error ? error.message : "";
    expect(message).toMatch(/the prompt needs about \d+ tokens plus 1024 for the answer/);
    expect(message).toContain("32768 tokens");
    expect(server.chatRequests()).toHaveLength(0);
  });

  it("sends a configured numCtx as is, and refuses a prompt that would not fit in it", async () => {
    await invokeJudge(judge({ numCtx: 4096 }), promptOf(200));
    expect(server.chatRequests()[0]?.options?.num_ctx).toBe(4096);
    const error = await rejection(invokeJudge(judge({ numCtx: 4096 }), promptOf(12_000)));
    expect(isEvalgateError(error, "MODEL_REQUEST_REJECTED")).toBe(true);
    expect(error instanceof Error ? error.message : "").toContain("numCtx of 4096 tokens");
    expect(server.chatRequests()).toHaveLength(1);
  });
});
