import { describe, expect, it } from "vitest";
import { weightedAverage } from "../../src/scoring/scoreCatalog.js";
import {
  catalog,
  checkOutcome,
  notEvaluated,
  resultsFor,
  scoreCriterion,
  scoreOutcome,
  seedCatalog,
} from "./helpers.js";

describe("weightedAverage", () => {
  it("leaves the knockout's weight out of the total (the TOON criteria dialect's example: 4·0.4 + 3·0.6)", () => {
    const cat = seedCatalog();
    const avg = weightedAverage(
      resultsFor(cat, { c1: checkOutcome("pass"), c2: scoreOutcome(4), c3: scoreOutcome(3) }),
    );
    // (0.75·0.4 + 0.5·0.6) / (0.4 + 0.6) = 0.6, i.e. 3.4 on 1–5
    expect(avg.overallScore).toBe(0.6);
    expect(avg.totalWeight).toBe(1);
    expect(avg.scores).toEqual({ c1: 1, c2: 0.75, c3: 0.5 });
    expect(avg.zeroWeight).toBe(false);
  });

  it("divides by the weight of the evaluated criteria only", () => {
    const cat = catalog({
      criteria: [scoreCriterion("a", 1), scoreCriterion("b", 3), scoreCriterion("c", 1)],
    });
    const avg = weightedAverage(
      resultsFor(cat, { a: scoreOutcome(5), b: notEvaluated(), c: scoreOutcome(3) }),
    );
    // b is neither a zero (would give 0.3) nor a pass (would give 0.9): (1 + 0.5) / 2
    expect(avg.overallScore).toBe(0.75);
    expect(avg.totalWeight).toBe(2);
    expect(avg.notEvaluated).toEqual(["b"]);
    expect(avg.scores).not.toHaveProperty("b");
  });

  it("weighs unequal weights", () => {
    const cat = catalog({ criteria: [scoreCriterion("a", 0.25), scoreCriterion("b", 0.75)] });
    const avg = weightedAverage(resultsFor(cat, { a: scoreOutcome(5), b: scoreOutcome(1) }));
    expect(avg.overallScore).toBe(0.25);
  });

  it("reports zero total weight instead of dividing by zero", () => {
    const cat = catalog({ criteria: [scoreCriterion("a", 0), scoreCriterion("b", 0)] });
    const avg = weightedAverage(resultsFor(cat, { a: scoreOutcome(5), b: scoreOutcome(4) }));
    expect(avg.overallScore).toBe(0);
    expect(Number.isNaN(avg.overallScore)).toBe(false);
    expect(avg.zeroWeight).toBe(true);
    expect(avg.warnings).toEqual([
      "no weighted score: the evaluated criteria are knockouts or have weight 0; overall score set to 0 and cannot pass",
    ]);
  });

  it("reports zero weight when nothing could be evaluated", () => {
    const cat = seedCatalog();
    const avg = weightedAverage(
      resultsFor(cat, { c1: notEvaluated(), c2: notEvaluated(), c3: notEvaluated() }),
    );
    expect(avg.zeroWeight).toBe(true);
    expect(avg.notEvaluated).toEqual(["c1", "c2", "c3"]);
    expect(avg.warnings[0]).toContain("no criterion could be evaluated");
  });
});
