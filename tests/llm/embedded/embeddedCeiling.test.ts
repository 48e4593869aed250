/**
 * The embedded model's calls share the same fair ceiling as a server's, capped at the runtime's
 * sequences (EVALGATE_LLAMA_SEQUENCES): with one sequence, a second call waits for the first,
 * and one that may not wait at all is refused naming the ceiling. The real node-llama-cpp
 * runtime loads a tiny GGUF written by the test helper.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatModel } from "../../../src/llm/chatModel.js";
import { ModelUnavailableError } from "../../../src/llm/errors.js";
import { invokeJudge } from "../../../src/llm/invoke.js";
import { writeTinyGguf } from "../../doubles/tinyGguf.js";

/** Loading a native runtime on a busy machine takes a while (a limit, never a measurement). */
const EMBEDDED_TIMEOUT = 240_000;
const messages = [
  new SystemMessage("Answer with one JSON object."),
  new HumanMessage('Give {"score": number, "reasoning": string}.'),
];
const schema = {
  type: "object",
  properties: { score: { type: "number" }, reasoning: { type: "string" } },
  required: ["score", "reasoning"],
};

let dir: string;
let model: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-embedded-ceiling-"));
  model = writeTinyGguf(join(dir, "tiny.gguf"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the embedded model's ceiling", () => {
  it(
    "with one sequence, a call that may not wait is refused while another runs; the other answers",
    async () => {
      const judge = createChatModel(`llama-cpp:${model}`, {
        env: {
          EVALGATE_LLAMA_SEQUENCES: "1",
          EVALGATE_LLAMA_THREADS: "1",
          EVALGATE_LLAMA_CONTEXT: "2048",
          EVALGATE_LLAMA_MAX_TOKENS: "40",
        },
        format: schema,
        maxRetries: 0,
        maxQueueWaitMs: 1,
        timeoutMs: EMBEDDED_TIMEOUT,
      });
      const [first, second] = await Promise.allSettled([
        invokeJudge(judge, messages),
        invokeJudge(judge, messages),
      ]);
      const outcomes = [first, second].map((outcome) => outcome.status).sort();
      expect(outcomes).toEqual(["fulfilled", "rejected"]);
      const refused = [first, second].find((outcome) => outcome.status === "rejected");
      const error = refused?.status === "rejected" ? refused.reason : undefined;
      expect(error).toBeInstanceOf(ModelUnavailableError);
      expect((error as ModelUnavailableError).reason).toBe("busy");
      expect((error as Error).message).toContain("at most 1 calls are in flight to it at once");
    },
    EMBEDDED_TIMEOUT,
  );
});
