/**
 * The caller's timeoutMs applies to a ready-made model too: the Ollama-protocol server holds every
 * answer, and each call ends with a ModelTimeoutError naming the caller's timeout, every request
 * aborted by the client (counted at the server, not clocked).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CriteriaEngine } from "../../src/engine/apis/criteriaEngine.js";
import { PromptEvaluator } from "../../src/engine/apis/promptEvaluator.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { EvaluationModelError } from "../../src/engine/errors.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelTimeoutError } from "../../src/llm/errors.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { budgetCatalog } from "./helpers.js";

const MODEL = "qwen2.5:7b-instruct";
const CALLER_TIMEOUT = 300;
/** The model's own timeout: far longer than any test may run. */
const MODEL_TIMEOUT = 600_000;

let server: OllamaServer;
beforeAll(async () => {
  server = await startOllamaServer({ models: [MODEL], behaviour: { hold: "before-response" } });
});
afterAll(async () => {
  server.release();
  await server.close();
});
let before = 0;
beforeEach(() => {
  before = server.chatRequests().length;
});

function readyModel() {
  return createChatModel(`ollama:${MODEL}`, {
    baseUrl: server.url,
    env: {},
    maxRetries: 0,
    timeoutMs: MODEL_TIMEOUT,
  });
}

/** Every request the call made was aborted. */
async function expectAborted() {
  const made = server.chatRequests().length - before;
  expect(made).toBeGreaterThan(0);
  await server.waitFor((s) => s.clientDisconnects >= s.chatRequests().length);
  expect(server.held).toBe(0);
}

/** The call failed with the caller's timeout, and every request it made was aborted. */
async function expectCallerTimeout(error: unknown) {
  const modelError = error instanceof EvaluationModelError ? error.modelError : error;
  expect(modelError).toBeInstanceOf(ModelTimeoutError);
  expect((modelError as ModelTimeoutError).timeoutMs).toBe(CALLER_TIMEOUT);
  await expectAborted();
}

/** A view's judge error: the caller's timeout, named; every request aborted. */
async function expectTimeoutJudgeError(judgeError: string | undefined) {
  expect(judgeError).toContain(`within ${CALLER_TIMEOUT} ms`);
  await expectAborted();
}

describe("a ready-made model with the caller's timeoutMs", { timeout: 60_000 }, () => {
  it("evaluateContent", async () => {
    const error = await evaluateContent({
      content: "Total 120,000 EUR: staff 80,000, equipment 40,000.",
      catalog: await budgetCatalog(),
      model: readyModel(),
      timeoutMs: CALLER_TIMEOUT,
    }).catch((e: unknown) => e);
    await expectCallerTimeout(error);
  });

  it("CriteriaEngine.evaluateCriterion", async () => {
    const engine = new CriteriaEngine({ model: readyModel(), timeoutMs: CALLER_TIMEOUT });
    const evaluation = await engine.evaluateCriterion(
      {
        id: "c1",
        title: "Location",
        description: "Is the company based in Hamburg?",
        weight: 1,
        method: { kind: "check" },
      },
      "[1] (profile.md) Registered office: Am Sandtorkai 62, 20457 Hamburg.",
    );
    expect(evaluation.evaluated).toBe(false);
    await expectTimeoutJudgeError(evaluation.judgeError);
  });

  it("PromptEvaluator", async () => {
    const evaluator = new PromptEvaluator({ model: readyModel(), timeoutMs: CALLER_TIMEOUT });
    const evaluation = await evaluator.evaluate({
      question: "What does the call fund?",
      candidateAnswer: "Clean-water pumps in East Africa.",
      referenceAnswer: "Clean-water infrastructure in East Africa.",
    });
    expect(evaluation.verdict).toBe("error");
    await expectTimeoutJudgeError(evaluation.judgeError);
  });

  it("RubricExecutor", async () => {
    const executor = new RubricExecutor({ llm: readyModel(), timeoutMs: CALLER_TIMEOUT });
    const levels = [
      { id: "fail", label: "Fail", description: "Unclear", score: 0 },
      { id: "pass", label: "Pass", description: "Clear", score: 1 },
    ];
    const rubric = {
      id: "clarity",
      name: "Clarity",
      version: "1.0.0",
      pass_threshold: 0.7,
      criteria: [
        {
          id: "clear",
          name: "Clear",
          description: "The text is clear",
          weight: 1,
          levels,
          scoring_method: { type: "llm_decode", decode_prompt: "Judge: {{text}}" },
        },
      ],
    };
    const evaluation = await executor.evaluate(rubric, { text: "A clear text." });
    const [clear] = evaluation.criterion_results;
    expect(clear?.level_id).toBe("unable_to_evaluate");
    await expectTimeoutJudgeError(clear?.notes);
  });
});
