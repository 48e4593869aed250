/**
 * The content budget: content over what fits the judge's context window is refused, naming both
 * sizes, before any model call.
 */
import { describe, expect, it } from "vitest";
import { CriteriaEngine } from "../../src/engine/apis/criteriaEngine.js";
import { PromptEvaluator } from "../../src/engine/apis/promptEvaluator.js";
import { contentBudgetBytes } from "../../src/engine/contentBudget.js";
import { ContentTooLargeError } from "../../src/engine/errors.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { isEvalgateError } from "../../src/errors.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { catalogOf, judgeOf, scoreAnswer } from "./helpers.js";

function oneCriterion() {
  return catalogOf({
    id: "one",
    name: "One criterion",
    version: "1",
    criteria: [
      {
        id: "clarity",
        title: "Clarity",
        description: "Is the content clear?",
        weight: 1,
        method: { kind: "score", scale: { min: 0, max: 1 } },
      },
    ],
  });
}

async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("the content budget", () => {
  it("is (context tokens - 4,096) x 3 bytes, 86,016 bytes for a 32k window by default", () => {
    expect(contentBudgetBytes()).toBe(86_016);
    expect(contentBudgetBytes(8_192)).toBe(12_288);
  });

  it("refuses text over maxContentBytes, naming both sizes, with no model call", async () => {
    const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.8) });
    const error = await refusal(() =>
      evaluateContent({
        content: "x".repeat(2_001),
        catalog: oneCriterion(),
        model: judgeOf(model),
        maxContentBytes: 2_000,
      }),
    );
    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect((error as ContentTooLargeError).code).toBe("CONTENT_TOO_LARGE");
    expect((error as Error).message).toContain("2,001 bytes");
    expect((error as Error).message).toContain("2,000 bytes");
    expect(model.calls.length).toBe(0);
  });

  it("refuses content over the default budget when no maxContentBytes is given", async () => {
    const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.8) });
    const error = await refusal(() =>
      evaluateContent({
        content: "ü".repeat(43_009),
        catalog: oneCriterion(),
        model: judgeOf(model),
      }),
    );
    expect(isEvalgateError(error, "CONTENT_TOO_LARGE")).toBe(true);
    expect((error as Error).message).toContain("86,018 bytes");
    expect((error as Error).message).toContain("86,016 bytes");
    expect(model.calls.length).toBe(0);
  });

  it("measures structured content as its JSON text", async () => {
    const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.8) });
    const content = { items: ["a".repeat(90)] };
    const jsonBytes = Buffer.byteLength(JSON.stringify(content, null, 2));
    const error = await refusal(() =>
      evaluateContent({
        content,
        catalog: oneCriterion(),
        model: judgeOf(model),
        maxContentBytes: 100,
      }),
    );
    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect((error as Error).message).toContain(`${jsonBytes} bytes`);
    expect(model.calls.length).toBe(0);
  });

  it("lets content within the budget through", async () => {
    const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.8) });
    const result = await evaluateContent({
      content: "x".repeat(100),
      catalog: oneCriterion(),
      model: judgeOf(model),
      maxContentBytes: 100,
    });
    expect(result.criteria).toHaveLength(1);
    expect(model.calls.length).toBe(1);
  });

  it("PromptEvaluator refuses a candidate answer over its budget with no model call", async () => {
    const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.8) });
    const evaluator = new PromptEvaluator({ model: judgeOf(model), maxContentBytes: 50 });
    const error = await refusal(() =>
      evaluator.evaluate({ question: "Why?", candidateAnswer: "y".repeat(51) }),
    );
    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect((error as Error).message).toContain("51 bytes");
    expect((error as Error).message).toContain("50 bytes");
    expect(model.calls.length).toBe(0);
  });
});

describe("the content budget of the other entry points", () => {
  it("CriteriaEngine.evaluateCriterion refuses context over its budget with no model call", async () => {
    const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.8) });
    const engine = new CriteriaEngine({ model: judgeOf(model), maxContentBytes: 40 });
    const criterion = oneCriterion().criteria[0];
    if (criterion === undefined) throw new Error("the catalog has one criterion");
    const error = await refusal(() => engine.evaluateCriterion(criterion, "z".repeat(41)));
    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect((error as Error).message).toContain("41 bytes");
    expect(model.calls.length).toBe(0);
  });
});
