import { describe, expect, it } from "vitest";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { buildMetaRubric } from "../../src/rubrics/metaRubric.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import { CONTENT_QUALITY, QUIZ_RUBRIC } from "./fixtures.js";

/** As the document runs it: a plain FunctionRegistry resolves the meta-rubric's function refs. */
const executor = new RubricExecutor({ functionRegistry: new FunctionRegistry() });

const levelsOf = (evaluation: {
  criterion_results: { criterion_id: string; level_id: string }[];
}) => Object.fromEntries(evaluation.criterion_results.map((r) => [r.criterion_id, r.level_id]));

/** A rubric with a problem for four of the five checks. */
const FLAWED = {
  ...CONTENT_QUALITY,
  id: "flawed",
  pass_threshold: 0,
  criteria: [
    { ...CONTENT_QUALITY.criteria[0], weight: 0.3 },
    {
      ...CONTENT_QUALITY.criteria[1],
      name: "Clarity",
      weight: 0.3,
      levels: [
        { id: "pass", label: "Pass", description: "Covers the topics", score: 0.7 },
        { id: "fail", label: "Fail", description: "Misses topics", score: 0.0 },
        { id: "excellent", label: "Excellent", description: "In depth", score: 1.0 },
      ],
    },
  ],
};

describe("buildMetaRubric", () => {
  it("is five deterministic meta checks of weight 0.2, for rubrics, passing at 0.7", () => {
    const meta = buildMetaRubric();
    expect(meta.targetType).toBe("rubric");
    expect(meta.passingThreshold).toBe(0.7);
    expect(meta.criteria.map((c) => [c.id, c.weight, c.method.kind])).toEqual([
      ["criteria_coverage", 0.2, "function"],
      ["criteria_independence", 0.2, "function"],
      ["weight_distribution", 0.2, "function"],
      ["threshold_reasonableness", 0.2, "function"],
      ["level_ordering", 0.2, "function"],
    ]);
  });

  it("scores a sound rubric (its dict form) at 100%: structurally valid", async () => {
    const evaluation = await executor.evaluate(buildMetaRubric(), CONTENT_QUALITY, {
      targetId: CONTENT_QUALITY.id,
      targetType: "rubric",
    });
    expect(levelsOf(evaluation)).toEqual({
      criteria_coverage: "pass",
      criteria_independence: "pass",
      weight_distribution: "pass",
      threshold_reasonableness: "pass",
      level_ordering: "pass",
    });
    expect(evaluation).toMatchObject({
      rubric_id: "meta_rubric",
      rubric_version: "1.0.0",
      target_id: "content_quality",
      target_type: "rubric",
      weighted_score: 1,
      passed: true,
    });
  });

  it("reads each flaw as a level, and the weighted score from them", async () => {
    const evaluation = await executor.evaluate(buildMetaRubric(), FLAWED, { targetType: "rubric" });
    expect(levelsOf(evaluation)).toEqual({
      criteria_coverage: "pass",
      criteria_independence: "partial",
      weight_distribution: "fail",
      threshold_reasonableness: "too_low",
      level_ordering: "fail",
    });
    // 0.2·1 + 0.2·0.5 + 0 + 0 + 0, over a weight of 1.
    expect(evaluation.weighted_score).toBeCloseTo(0.3, 10);
    expect(evaluation.passed).toBe(false);
  });

  it("tells an unreachable threshold from a trivial one, and fails a rubric with no criteria", async () => {
    const tooHigh = await executor.evaluate(buildMetaRubric(), {
      ...QUIZ_RUBRIC,
      criteria: [
        {
          ...QUIZ_RUBRIC.criteria[0],
          levels: [
            { id: "fail", label: "Fail", description: "Too few", score: 0 },
            { id: "pass", label: "Pass", description: "Enough", score: 0.6 },
          ],
        },
      ],
    });
    expect(levelsOf(tooHigh).threshold_reasonableness).toBe("too_high");
    const empty = await executor.evaluate(buildMetaRubric(), { ...QUIZ_RUBRIC, criteria: [] });
    expect(levelsOf(empty).criteria_coverage).toBe("fail");
    expect(empty.passed).toBe(false);
  });

  it("leaves every check unevaluated for a target that is not a rubric: never a pass", async () => {
    const evaluation = await executor.evaluate(buildMetaRubric(), { questions: ["Q1"] });
    expect(evaluation.criterion_results.map((r) => [r.level_id, r.score])).toEqual(
      Array.from({ length: 5 }, () => ["error", null]),
    );
    expect(evaluation.passed).toBe(false);
  });

  it("scores a rubric read back from the registry, and itself", async () => {
    const registry = await RubricRegistry.open({ sqlitePath: ":memory:" });
    try {
      await registry.register(buildMetaRubric());
      await registry.register(QUIZ_RUBRIC);
      const meta = await registry.require("meta_rubric");
      const quiz = await executor.evaluate(meta, await registry.require("quiz_quality"));
      expect(quiz.passed).toBe(true);
      expect((await executor.evaluate(meta, meta)).weighted_score).toBe(1);
    } finally {
      await registry.close();
    }
  });
});
