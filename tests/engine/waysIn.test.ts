/**
 * Every way into an evaluation calls the one pipeline and passes its features on: each way in,
 * given a judge cache, answers an unchanged second evaluation from the cache — no model call —
 * with the same view of the result. (The features themselves are tested on the pipeline.)
 */
import { describe, expect, it } from "vitest";
import { runBlueprint } from "../../src/blueprints/index.js";
import { CriteriaEngine } from "../../src/engine/apis/criteriaEngine.js";
import { PromptEvaluator } from "../../src/engine/apis/promptEvaluator.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { MemoryJudgeCacheStore } from "../../src/engine/judgeCache.js";
import { createCatalogEvaluators } from "../../src/evaluators/index.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { catalogOf, judgeOf, tableAnswer } from "./helpers.js";
import { quizRubric } from "./quizRubric.js";

const SCORE = '{"reasoning": "The scope is named: pumps in East Africa.", "score": 0.9}';

/** A judge that answers tables, levels and scores alike, counting its calls. */
function judge() {
  return new ScriptedChatModel({
    responder: (messages) => {
      const user = messages.at(-1)?.content ?? "";
      if (user.includes("{id,score,quotes,reasoning}")) {
        return tableAnswer([["scope", "pass", "Pumps are named."]]);
      }
      if (user.includes("level_id")) return '{"reasoning": "Asks why.", "level_id": "good"}';
      if (user.includes('"result"')) return '{"reasoning": "Hamburg is named.", "result": "pass"}';
      return SCORE;
    },
  });
}

const CATALOG = catalogOf({
  id: "scope",
  name: "Scope",
  version: "1",
  criteria: [
    {
      id: "scope",
      title: "Scope",
      description: "Does it name the scope?",
      weight: 1,
      method: { kind: "score", scale: { min: 0, max: 1 } },
    },
  ],
});

/** Each way in, evaluating one unchanged input with the given judge and cache. */
const WAYS_IN: Record<
  string,
  (model: ScriptedChatModel, cache: { store: MemoryJudgeCacheStore }) => Promise<unknown>
> = {
  evaluateContent: async (model, cache) => {
    const result = await evaluateContent({
      content: "Pumps in East Africa.",
      catalog: CATALOG,
      model: judgeOf(model),
      cache,
    });
    return result.criteria;
  },
  "CriteriaEngine.evaluateCriterion": async (model, cache) => {
    const engine = new CriteriaEngine({ model: judgeOf(model), cache });
    const criterion = {
      id: "c1",
      title: "Hamburg Base",
      description: "Is the company based in Hamburg?",
      weight: 1,
      method: { kind: "check" as const },
    };
    const evaluation = await engine.evaluateCriterion(criterion, "Registered in Hamburg.");
    return [evaluation.native, evaluation.reasoning];
  },
  "PromptEvaluator (freeform)": async (model, cache) => {
    const evaluator = new PromptEvaluator({ model: judgeOf(model), cache });
    const evaluation = await evaluator.evaluate({ question: "Scope?", candidateAnswer: "Pumps." });
    return [evaluation.score, evaluation.verdict, evaluation.reasoning];
  },
  "PromptEvaluator (rubric)": async (model, cache) => {
    const evaluator = new PromptEvaluator({
      model: judgeOf(model),
      cache,
      rubrics: [{ id: "scope", expected_outcome: "Names the scope" }],
    });
    const evaluation = await evaluator.evaluate({ question: "Scope?", candidateAnswer: "Pumps." });
    return [evaluation.score, evaluation.verdict, evaluation.hits];
  },
  RubricExecutor: async (model, cache) => {
    const executor = new RubricExecutor({ llm: judgeOf(model), cache });
    const rubric = quizRubric({ type: "llm_decode", decode_prompt: "Judge: {{ questions }}" });
    const evaluation = await executor.evaluate(rubric, { questions: ["Why does ice float?"] });
    return evaluation.criterion_results.map((r) => [r.level_id, r.score]);
  },
  "LangSmith evaluators": async (model, cache) => {
    const { all } = await createCatalogEvaluators(CATALOG, { model: judgeOf(model), cache });
    return (await all({ outputs: "Pumps in East Africa." })).map((r) => r.score);
  },
};

describe("the pipeline's features reach every way in", () => {
  it.each(Object.entries(WAYS_IN))(
    "%s: the judge cache answers the second time",
    async (_, run) => {
      const cache = { store: new MemoryJudgeCacheStore() };
      const first = judge();
      const firstView = await run(first, cache);
      expect(first.calls.length).toBeGreaterThan(0);
      expect(cache.store.size).toBeGreaterThan(0);

      const second = judge();
      expect(await run(second, cache)).toEqual(firstView);
      expect(second.calls).toHaveLength(0);
    },
  );

  it("runBlueprint: the judge cache answers the second time (the candidates are asked again)", async () => {
    const cache = { store: new MemoryJudgeCacheStore() };
    const blueprint = {
      id: "scope",
      prompts: [{ id: "p1", promptText: "What does the call fund?", points: ["Names pumps."] }],
    };
    const candidate = () => new ScriptedChatModel({ responder: () => "Pumps in East Africa." });
    const first = judge();
    const run = await runBlueprint(blueprint, {
      models: [candidate()],
      judge: judgeOf(first),
      cache,
    });
    const second = judge();
    const again = await runBlueprint(blueprint, {
      models: [candidate()],
      judge: judgeOf(second),
      cache,
    });
    expect(first.calls.length).toBeGreaterThan(0);
    expect(second.calls).toHaveLength(0);
    expect(again.evaluationResults).toEqual(run.evaluationResults);
  });
});
