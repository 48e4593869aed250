import { describe, expect, it } from "vitest";
import { CatalogSchema } from "../../src/criteria/model.js";
import { CriteriaEngine } from "../../src/engine/apis/criteriaEngine.js";
import { PromptEvaluator } from "../../src/engine/apis/promptEvaluator.js";
import { EvaluationError, EvaluationModelError } from "../../src/engine/errors.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelAbortedError, ModelUnavailableError } from "../../src/llm/errors.js";
import { ScriptedChatModel } from "../doubles/index.js";

/** The input error a call throws, or a failure when it throws none. */
async function inputError(run: () => unknown): Promise<EvaluationError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(EvaluationError);
    expect((error as EvaluationError).kind).toBe("input");
    return error as EvaluationError;
  }
  throw new Error("expected an input error");
}

const unavailable = () =>
  new ModelUnavailableError("connection-refused", "connect ECONNREFUSED", { provider: "scripted" });

describe("the evaluation classes report bad input the same way", () => {
  const model = new ScriptedChatModel({ script: [] });

  it("names what was given, each problem and where it is", async () => {
    const engineOptions = await inputError(() => new CriteriaEngine({ model, concurrency: 0 }));
    expect(engineOptions.message).toMatch(/^invalid CriteriaEngine options:\n✖ /);
    expect(engineOptions.message).toContain("→ at concurrency");

    const engine = new CriteriaEngine({ model });
    const criterion = await inputError(() =>
      engine.evaluateCriterion({ id: "c1", title: "T", weight: -1 } as never, "context"),
    );
    expect(criterion.message).toMatch(/^invalid criterion:\n/);
    expect(criterion.message).toContain("→ at description");
    expect(criterion.message).toContain("→ at weight");

    const rubrics = await inputError(
      () => new PromptEvaluator({ model, rubrics: [{ id: "scope" } as never] }),
    );
    expect(rubrics.message).toMatch(/^invalid rubrics:\n/);
    expect(rubrics.message).toContain("→ at [0].expected_outcome");

    const evaluator = new PromptEvaluator({ model });
    const input = await inputError(() => evaluator.evaluate({ question: "Q?" } as never));
    expect(input.message).toMatch(/^invalid evaluation input:\n/);
    expect(input.message).toContain("→ at candidateAnswer");
  });
});

describe("the evaluation classes map model errors the same way", () => {
  it("a model that cannot be called is a judge error on the criterion; evaluateContent throws it typed", async () => {
    const down = createChatModel(
      new ScriptedChatModel({
        responder: () => {
          throw unavailable();
        },
      }),
      {
        maxRetries: 0,
      },
    );
    const criterion = {
      id: "c1",
      title: "Hamburg Base",
      description: "Is the company based in Hamburg?",
      weight: 1,
      method: { kind: "check" as const },
    };
    const fromEngine = await new CriteriaEngine({ model: down }).evaluateCriterion(
      criterion,
      "Hamburg.",
    );
    expect(fromEngine).toMatchObject({ evaluated: false, score: null, met: null });
    expect(fromEngine.judgeError).toContain("connect ECONNREFUSED");

    const fromEvaluator = await new PromptEvaluator({ model: down }).evaluate({
      question: "Where?",
      candidateAnswer: "Hamburg.",
    });
    expect(fromEvaluator).toMatchObject({ verdict: "error", score: 0 });
    expect(fromEvaluator.judgeError).toContain("connect ECONNREFUSED");

    const fromPipeline = await evaluateContent({
      content: "Hamburg.",
      catalog: CatalogSchema.parse({
        id: "base",
        name: "Base",
        version: "1",
        criteria: [criterion],
      }),
      model: down,
    }).catch((error: unknown) => error);
    expect(fromPipeline).toBeInstanceOf(EvaluationModelError);
    if (!(fromPipeline instanceof EvaluationModelError)) return;
    expect(fromPipeline.modelError).toBeInstanceOf(ModelUnavailableError);
    expect(fromPipeline.cause).toBe(fromPipeline.modelError);
    expect(fromPipeline.result?.criteria[0]?.judgeError).toContain("connect ECONNREFUSED");
  });

  it("an abort is not a model failure: it reaches the caller as it is", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    const model = createChatModel(new ScriptedChatModel({ script: ["{}"] }), { maxRetries: 0 });
    const evaluation = new PromptEvaluator({ model }).evaluate(
      { question: "Where?", candidateAnswer: "Hamburg." },
      { signal: controller.signal },
    );
    await expect(evaluation).rejects.toBeInstanceOf(ModelAbortedError);
  });
});
