import { describe, expect, it } from "vitest";
import {
  PromptEvaluator,
  type PromptRubricItemInput,
} from "../../src/engine/apis/promptEvaluator.js";
import { EvaluationError } from "../../src/engine/errors.js";
import { promptHash, responseHash } from "../../src/judge/trace.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelUnavailableError } from "../../src/llm/errors.js";
import { jsonAnswer, judgeAnswer, ScriptedChatModel } from "../doubles/index.js";
import { tableAnswer } from "../engine/helpers.js";

const QUESTION = {
  question: "What does the call fund, and up to what amount?",
  candidateAnswer: "It funds clean-water pumps in East Africa, up to 400,000 EUR per project.",
  referenceAnswer: "Clean-water infrastructure in East Africa; at most 400,000 EUR per project.",
  expectedOutcome: "Names the funding scope and the ceiling per project.",
};

function freeformWith(...script: string[]) {
  const model = new ScriptedChatModel({ script });
  return { model, evaluator: new PromptEvaluator({ model }) };
}

describe("PromptEvaluator freeform mode (the JSON judge contract)", () => {
  it("sends expected outcome, question, reference and candidate, and records the prompts", async () => {
    const { model, evaluator } = freeformWith(judgeAnswer({ score: 0.9 }));
    const result = await evaluator.evaluate(QUESTION);

    expect(result.mode).toBe("freeform");
    const { systemPrompt, userPrompt } = result.evaluatorProviderRequest ?? {
      systemPrompt: "",
      userPrompt: "",
    };
    expect(userPrompt).toContain(QUESTION.expectedOutcome);
    expect(userPrompt).toContain(QUESTION.question);
    expect(userPrompt).toContain(QUESTION.referenceAnswer);
    expect(userPrompt).toContain(QUESTION.candidateAnswer);
    expect(systemPrompt).toContain("exactly one JSON object");
    for (const field of ["score", "hits", "misses", "reasoning"]) {
      expect(systemPrompt).toContain(field);
    }
    // What was recorded is exactly what the model received.
    const sent = model.calls[0]?.messages ?? [];
    expect(sent.find((m) => m.role === "system")?.content).toBe(systemPrompt);
    expect(sent.find((m) => m.role === "user")?.content).toBe(userPrompt);
    expect(result.trace?.promptHash).toBe(promptHash(systemPrompt, userPrompt));
    expect(result.trace?.responseHash).toBe(responseHash(judgeAnswer({ score: 0.9 })));
  });

  it("keeps at most four hits and misses", async () => {
    const { evaluator } = freeformWith(
      jsonAnswer({
        reasoning: "Complete and exact.",
        score: 1,
        hits: ["scope", "ceiling", "region", "per project", "currency", "  "],
        misses: ["a", "b", "c", "d", "e"],
      }),
    );
    const result = await evaluator.evaluate(QUESTION);
    expect(result.score).toBe(1);
    expect(result.hits).toEqual(["scope", "ceiling", "region", "per project"]);
    expect(result.misses).toEqual(["a", "b", "c", "d"]);
    expect(result.verdict).toBe("pass");
    expect(result.judgeError).toBeUndefined();
    expect(result.reasoning).toBe("Complete and exact.");
  });

  it("a score off 0–1 is a judge error with the verdict 'error', not full marks", async () => {
    const { evaluator } = freeformWith(jsonAnswer({ reasoning: "Complete.", score: 1.7 }));
    const result = await evaluator.evaluate(QUESTION);
    expect(result.verdict).toBe("error");
    expect(result.score).toBe(0);
    expect(result.judgeError).toContain("score 1.7 is outside 0–1");
  });

  it("with weighted scores asked for, notes why the score stands plain", async () => {
    const model = new ScriptedChatModel({ script: [judgeAnswer({ score: 0.9 })] });
    const evaluator = new PromptEvaluator({ model, weightedScores: true });
    const result = await evaluator.evaluate(QUESTION);
    expect(result.score).toBe(0.9);
    expect(result.notes).toEqual([expect.stringMatching(/^score not probability-weighted: .+/)]);
  });

  it("reads the first valid JSON object out of surrounding prose", async () => {
    const { evaluator } = freeformWith(
      `Here is my judgement:\n${judgeAnswer({ score: 0.65, reasoning: "Partly." })}\nThanks.`,
    );
    const result = await evaluator.evaluate(QUESTION);
    expect(result.score).toBe(0.65);
    expect(result.verdict).toBe("borderline");
  });

  it("without valid JSON: score 0, no hits or misses, a judgeError and the verdict 'error'", async () => {
    const { evaluator } = freeformWith("I think the answer is quite good, maybe 8 out of 10.");
    const result = await evaluator.evaluate(QUESTION);
    expect(result.score).toBe(0);
    expect(result.hits).toEqual([]);
    expect(result.misses).toEqual([]);
    expect(result.verdict).toBe("error");
    expect(result.judgeError).toMatch(/no JSON object found/);
    expect(result.trace?.rawResponse).toContain("8 out of 10");
  });

  it.each([
    [0.8, "pass"],
    [0.79, "borderline"],
    [0.6, "borderline"],
    [0.59, "fail"],
    [0, "fail"],
  ])("verdict band: score %s is %s", async (score, verdict) => {
    const { evaluator } = freeformWith(judgeAnswer({ score }));
    const result = await evaluator.evaluate(QUESTION);
    expect(result.score).toBe(score);
    expect(result.verdict).toBe(verdict);
  });

  it("a model that cannot be called is the verdict 'error' with the cause, the call traced", async () => {
    const down = new ScriptedChatModel({
      script: [new ModelUnavailableError("connection-refused", "ECONNREFUSED", {})],
    });
    const evaluator = new PromptEvaluator({ model: createChatModel(down, { maxRetries: 0 }) });
    const result = await evaluator.evaluate(QUESTION);
    expect(result).toMatchObject({ verdict: "error", score: 0, hits: [], misses: [] });
    expect(result.judgeError).toContain("ECONNREFUSED");
    expect(result.trace?.error).toContain("ECONNREFUSED");
  });

  it("rejects input that is not the JSON judge contract's shape", async () => {
    const { evaluator } = freeformWith();
    const bad = { question: "Q?", candidate_answer: "A." } as unknown as typeof QUESTION;
    await expect(evaluator.evaluate(bad)).rejects.toBeInstanceOf(EvaluationError);
  });
});

const RUBRICS: PromptRubricItemInput[] = [
  {
    id: "scope",
    expected_outcome: "Names clean-water infrastructure as the scope",
    required: true,
  },
  { id: "ceiling", expected_outcome: "States the 400,000 EUR ceiling", weight: 2 },
  { id: "region", expected_outcome: "Names East Africa as the region" },
];

/** The table the judge answers rubric mode with: each item pass or fail, with its reasoning. */
function checks(results: Record<string, "pass" | "fail">) {
  return tableAnswer(
    Object.entries(results).map(
      ([id, result]) =>
        [id, result, `${id} ${result === "pass" ? "is" : "is not"} addressed`] as const,
    ),
  );
}

function rubricWith(answer: string | readonly string[], rubrics = RUBRICS) {
  const model = new ScriptedChatModel({ script: typeof answer === "string" ? [answer] : answer });
  return { model, evaluator: new PromptEvaluator({ model, rubrics }) };
}

describe("PromptEvaluator rubric mode (the JSON judge contract)", () => {
  it("checks every item in one table call; hits and misses are the items' expected outcomes", async () => {
    const { model, evaluator } = rubricWith(
      checks({ scope: "pass", ceiling: "pass", region: "fail" }),
    );
    const result = await evaluator.evaluate(QUESTION);

    expect(model.calls).toHaveLength(1);
    expect(result.mode).toBe("rubric");
    for (const item of RUBRICS) {
      expect(result.evaluatorProviderRequest?.userPrompt).toContain(item.expected_outcome);
    }
    expect(result.hits).toEqual([
      "Names clean-water infrastructure as the scope",
      "States the 400,000 EUR ceiling",
    ]);
    expect(result.misses).toEqual(["Names East Africa as the region"]);
    // weights 1 + 2 passed of 1 + 2 + 1
    expect(result.score).toBe(0.75);
    expect(result.verdict).toBe("borderline");
    expect(result.rubricResults?.map((r) => r.result)).toEqual(["pass", "pass", "fail"]);
  });

  it("weights decide the score: only the heavy item passing gives 2/4", async () => {
    const { evaluator } = rubricWith(checks({ scope: "fail", ceiling: "pass", region: "fail" }));
    const result = await evaluator.evaluate(QUESTION);
    expect(result.score).toBe(0.5);
  });

  it("fails when a required item is not met, whatever the score", async () => {
    const rubrics = [
      { id: "scope", expected_outcome: "Names the scope", required: true, weight: 0.1 },
      { id: "ceiling", expected_outcome: "States the ceiling", weight: 0.9 },
    ];
    const { evaluator } = rubricWith(checks({ scope: "fail", ceiling: "pass" }), rubrics);
    const result = await evaluator.evaluate(QUESTION);
    expect(result.score).toBe(0.9);
    expect(result.verdict).toBe("fail");
  });

  it("passes at 0.8 and above when every required item is met", async () => {
    const { evaluator } = rubricWith(checks({ scope: "pass", ceiling: "pass", region: "pass" }));
    const result = await evaluator.evaluate(QUESTION);
    expect(result.score).toBe(1);
    expect(result.verdict).toBe("pass");
    expect(result.misses).toEqual([]);
  });

  it("an item the judge did not answer is a judge error, never a pass", async () => {
    // The table, the repair round and the item's own call all leave it unanswered.
    const { model, evaluator } = rubricWith([
      checks({ scope: "pass", ceiling: "pass" }),
      checks({ scope: "pass", ceiling: "pass" }),
      "I cannot tell.",
    ]);
    const result = await evaluator.evaluate(QUESTION);
    expect(model.calls).toHaveLength(3);
    const region = result.rubricResults?.find((r) => r.id === "region");
    expect(region?.result).toBe("error");
    expect(result.judgeError).toContain("'region'");
    expect(result.hits).not.toContain("Names East Africa as the region");
    expect(result.misses).not.toContain("Names East Africa as the region");
    // The answered items score 1, but an incomplete judgement cannot pass.
    expect(result.score).toBe(1);
    expect(result.verdict).toBe("borderline");
  });

  it("notes what the parser doubted in the table: a row for an unknown item, the repair round", async () => {
    const { evaluator } = rubricWith([
      checks({ scope: "pass", ceiling: "pass", budget: "pass" }),
      checks({ region: "fail" }),
    ]);
    const result = await evaluator.evaluate(QUESTION);
    expect(result.rubricResults?.map((r) => r.result)).toEqual(["pass", "pass", "fail"]);
    expect(result.notes).toEqual(
      expect.arrayContaining([
        expect.stringContaining('row for unknown criterion id "budget" ignored'),
        expect.stringContaining("one repair round"),
      ]),
    );
  });

  it("no usable answer at all: score 0 and the verdict 'error'", async () => {
    const { evaluator } = rubricWith(Array(5).fill("All items look fine to me."));
    const result = await evaluator.evaluate(QUESTION);
    expect(result.score).toBe(0);
    expect(result.verdict).toBe("error");
    expect(result.judgeError).toBeDefined();
    expect(result.rubricResults?.every((r) => r.result === "error")).toBe(true);
  });

  it("validates the rubric items", () => {
    const model = new ScriptedChatModel();
    expect(
      () => new PromptEvaluator({ model, rubrics: [{ id: "a", expected_outcome: "" }] }),
    ).toThrow(EvaluationError);
    expect(
      () =>
        new PromptEvaluator({
          model,
          rubrics: [
            { id: "a", expected_outcome: "x" },
            { id: "a", expected_outcome: "y" },
          ],
        }),
    ).toThrow(/appears more than once/);
    expect(
      () =>
        new PromptEvaluator({ model, rubrics: [{ id: "a", expected_outcome: "x", weight: 0 }] }),
    ).toThrow(/weight 0/);
    expect(new PromptEvaluator({ model, rubrics: [] }).mode).toBe("freeform");
  });
});
