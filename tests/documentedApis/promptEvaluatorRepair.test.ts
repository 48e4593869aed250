import { describe, expect, it } from "vitest";
import {
  PromptEvaluator,
  type PromptRubricItemInput,
} from "../../src/engine/apis/promptEvaluator.js";
import { jsonAnswer, ScriptedChatModel } from "../doubles/index.js";
import { tableAnswer, userPromptOf } from "../engine/helpers.js";

const QUESTION = {
  question: "What does the call fund?",
  candidateAnswer: "It funds clean-water pumps in East Africa.",
  expectedOutcome: "Names the funding scope.",
};

const RUBRICS: PromptRubricItemInput[] = [
  { id: "scope", expected_outcome: "Names clean-water infrastructure", required: true },
  { id: "region", expected_outcome: "Names East Africa" },
];

function evaluatorWith(script: string[], rubrics: PromptRubricItemInput[] = []) {
  const model = new ScriptedChatModel({ script });
  return { model, evaluator: new PromptEvaluator({ model, rubrics }) };
}

const UNJUSTIFIED_SCORE = jsonAnswer({ score: 0.9, hits: ["scope"], misses: [] });
const JUSTIFIED_SCORE = jsonAnswer({ score: 0.9, reasoning: "The scope is named: pumps." });

describe("PromptEvaluator: an answer without reasoning is asked for once more", () => {
  it("freeform: the second, justified answer is used, with a note and both calls counted", async () => {
    const { model, evaluator } = evaluatorWith([UNJUSTIFIED_SCORE, JUSTIFIED_SCORE]);
    const result = await evaluator.evaluate(QUESTION);

    expect(model.calls).toHaveLength(2);
    expect(result.verdict).toBe("pass");
    expect(result.score).toBe(0.9);
    expect(result.reasoning).toBe("The scope is named: pumps.");
    expect(result.judgeError).toBeUndefined();
    expect(result.notes[0]).toMatch(/no reasoning; asked once more/);
    // The second call carries the first answer and asks for the reasoning.
    const second = model.calls[1]?.messages ?? [];
    expect(second.some((m) => m.role === "assistant" && m.content === UNJUSTIFIED_SCORE)).toBe(
      true,
    );
    expect(second.at(-1)?.content).toMatch(/no reasoning/i);
  });

  it("freeform: still unjustified the second time is a judge error, never a pass", async () => {
    const { model, evaluator } = evaluatorWith([UNJUSTIFIED_SCORE, UNJUSTIFIED_SCORE]);
    const result = await evaluator.evaluate(QUESTION);

    expect(model.calls).toHaveLength(2);
    expect(result.verdict).toBe("error");
    expect(result.score).toBe(0);
    expect(result.judgeError).toMatch(/reasoning missing/);
  });

  it("freeform: a justified first answer is not asked again", async () => {
    const { model, evaluator } = evaluatorWith([JUSTIFIED_SCORE]);
    const result = await evaluator.evaluate(QUESTION);
    expect(model.calls).toHaveLength(1);
    expect(result.notes.some((n) => /asked once more/.test(n))).toBe(false);
  });

  it("rubric: an item decided without any reasoning is asked again, then scored", async () => {
    const bare = tableAnswer([
      ["scope", "pass", ""],
      ["region", "fail", "Only the continent is named."],
    ]);
    const justified = tableAnswer([["scope", "pass", "Pumps for clean water."]]);
    const { model, evaluator } = evaluatorWith([bare, justified], RUBRICS);
    const result = await evaluator.evaluate(QUESTION);

    // The table, then one repair round for the item without reasoning.
    expect(model.calls).toHaveLength(2);
    expect(userPromptOf(model.calls[1]?.messages ?? [])).toContain("scope");
    expect(result.rubricResults?.map((r) => [r.id, r.result])).toEqual([
      ["scope", "pass"],
      ["region", "fail"],
    ]);
    // weight 1 of 2 passed
    expect(result.score).toBe(0.5);
    expect(result.verdict).toBe("fail");
    expect(result.judgeError).toBeUndefined();
  });

  it("rubric: an item still unjustified after the second ask is a judge error", async () => {
    const bare = tableAnswer([
      ["scope", "pass", ""],
      ["region", "pass", "East Africa is named."],
    ]);
    const single = jsonAnswer({ result: "pass" });
    // The table, its repair round, then the item's own call and its repair round.
    const { model, evaluator } = evaluatorWith(
      [bare, tableAnswer([["scope", "pass", ""]]), single, single],
      RUBRICS,
    );
    const result = await evaluator.evaluate(QUESTION);

    expect(model.calls).toHaveLength(4);
    const scope = result.rubricResults?.find((r) => r.id === "scope");
    expect(scope?.result).toBe("error");
    expect(result.verdict).not.toBe("pass");
    expect(result.judgeError).toMatch(/'scope'.*reasoning missing/);
  });
});
