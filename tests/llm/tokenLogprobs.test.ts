/** Reading a model server's token log-probabilities: untrusted, bounded, all or nothing. */
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import {
  MAX_RECORDED_TOKENS,
  TOKEN_LOGPROBS_KEY,
  TokenLogprobRecorder,
  tokenLogprobsOf,
  withLogprobsRequested,
} from "../../src/llm/tokenLogprobs.js";

describe("TokenLogprobRecorder", () => {
  it("keeps the chunks' tokens in order and ignores chunks without any", () => {
    const recorder = new TokenLogprobRecorder();
    recorder.add([{ token: '{"', logprob: -0.1, top_logprobs: [] }]);
    recorder.add(undefined);
    recorder.add([{ token: "score", logprob: 0, bytes: [115] }]);
    expect(recorder.tokens()).toEqual([
      { token: '{"', logprob: -0.1, top_logprobs: [] },
      { token: "score", logprob: 0 },
    ]);
  });

  it("gives none once one chunk's entry is not a token log-probability (positions would shift)", () => {
    const recorder = new TokenLogprobRecorder();
    recorder.add([{ token: "a", logprob: -1 }]);
    recorder.add([{ token: "b", logprob: "-1" }]);
    recorder.add([{ token: "c", logprob: -1 }]);
    expect(recorder.tokens()).toBeUndefined();
    const notAList = new TokenLogprobRecorder();
    notAList.add({ token: "a", logprob: -1 });
    expect(notAList.tokens()).toBeUndefined();
  });

  it("gives none past MAX_RECORDED_TOKENS tokens, and refuses huge token texts", () => {
    const recorder = new TokenLogprobRecorder();
    const many = Array.from({ length: 1000 }, () => ({ token: "x", logprob: -0.5 }));
    for (let sent = 0; sent <= MAX_RECORDED_TOKENS; sent += many.length) recorder.add(many);
    expect(recorder.tokens()).toBeUndefined();
    const huge = new TokenLogprobRecorder();
    huge.add([{ token: "y".repeat(5000), logprob: 0 }]);
    expect(huge.tokens()).toBeUndefined();
  });
});

describe("tokenLogprobsOf", () => {
  it("reads an Ollama call's tokens and an OpenAI-compatible answer's logprobs.content", () => {
    const ours = new AIMessage({
      content: "{}",
      response_metadata: { [TOKEN_LOGPROBS_KEY]: [{ token: "{}", logprob: -0.2 }] },
    });
    expect(tokenLogprobsOf(ours)).toEqual([{ token: "{}", logprob: -0.2 }]);
    const openAi = new AIMessage({
      content: "7",
      response_metadata: {
        logprobs: {
          content: [
            {
              token: "7",
              logprob: -0.3,
              bytes: [55],
              top_logprobs: [{ token: "6", logprob: -2, bytes: [54] }],
            },
          ],
        },
      },
    });
    expect(tokenLogprobsOf(openAi)).toEqual([
      { token: "7", logprob: -0.3, top_logprobs: [{ token: "6", logprob: -2 }] },
    ]);
    expect(tokenLogprobsOf(new AIMessage({ content: "x" }))).toBeUndefined();
    const junk = new AIMessage({ content: "x", response_metadata: { logprobs: "lots" } });
    expect(tokenLogprobsOf(junk)).toBeUndefined();
  });
});

describe("withLogprobsRequested", () => {
  it("adds logprobs and top_logprobs to a JSON request body and leaves anything else alone", () => {
    const body = JSON.stringify({ model: "m", stream: true, messages: [] });
    expect(JSON.parse(withLogprobsRequested(body, 7) as string)).toEqual({
      model: "m",
      stream: true,
      messages: [],
      logprobs: true,
      top_logprobs: 7,
    });
    expect(withLogprobsRequested("not json", 7)).toBe("not json");
    expect(withLogprobsRequested("[1]", 7)).toBe("[1]");
    expect(withLogprobsRequested(undefined, 7)).toBeUndefined();
  });
});
