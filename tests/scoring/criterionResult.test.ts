import { describe, expect, it } from "vitest";
import type { Level } from "../../src/criteria/model.js";
import { makeCriterionResult, notEvaluatedOutcome } from "../../src/scoring/criterionResult.js";
import { UnknownLevelError } from "../../src/scoring/errors.js";
import { CriterionResultSchema } from "../../src/scoring/result.js";
import { thrownCode } from "../thrownCode.js";
import {
  catalog,
  checkOutcome,
  levelOutcome,
  scoreCriterion,
  scoreOutcome,
  unitCriterion,
  unitOutcome,
} from "./helpers.js";

const levels: Level[] = [
  { id: "fail", label: "Fail", description: "Too few", score: 0, indicators: [] },
  { id: "pass", label: "Pass", description: "Enough", score: 0.7, indicators: [] },
  { id: "excellent", label: "Excellent", description: "Plenty", score: 1, indicators: [] },
];

const cat = catalog({
  id: "cq",
  passingThreshold: 0.6,
  criteria: [
    scoreCriterion("s", 0.4, { passingThreshold: 0.75, citation: "Guideline §3" }),
    unitCriterion("u", 1),
    {
      id: "k",
      title: "Base",
      description: "In Hamburg?",
      weight: 1,
      knockout: true,
      method: { kind: "check" },
    },
    {
      id: "l",
      title: "Questions",
      description: "Enough questions",
      weight: 1,
      method: { kind: "function", name: "count", levels },
    },
  ],
});
const [s, u, k, l] = cat.criteria as [
  (typeof cat.criteria)[number],
  (typeof cat.criteria)[number],
  (typeof cat.criteria)[number],
  (typeof cat.criteria)[number],
];

describe("makeCriterionResult", () => {
  it("uses the criterion's own threshold and keeps native value and citation", () => {
    const r = makeCriterionResult(s, scoreOutcome(4, "Strong."), cat);
    expect(r).toMatchObject({
      id: "s",
      method: "score",
      weight: 0.4,
      evaluated: true,
      score: 0.75,
      native: 4,
      threshold: 0.75,
      met: true,
      citation: "Guideline §3",
      reasoning: "Strong.",
    });
    expect(makeCriterionResult(s, scoreOutcome(3), cat).met).toBe(false);
    expect(CriterionResultSchema.parse(r)).toEqual(r);
  });

  it("falls back to the catalog's threshold", () => {
    expect(makeCriterionResult(u, unitOutcome(0.6), cat)).toMatchObject({
      threshold: 0.6,
      met: true,
    });
    expect(makeCriterionResult(u, unitOutcome(0.59), cat).met).toBe(false);
  });

  it("marks a knockout critical and decides met from pass/fail", () => {
    expect(makeCriterionResult(k, checkOutcome("pass"), cat)).toMatchObject({
      critical: true,
      knockout: true,
      met: true,
      native: "pass",
    });
    expect(makeCriterionResult(k, checkOutcome("fail"), cat)).toMatchObject({
      score: 0,
      met: false,
      native: "fail",
    });
  });

  it("keeps the decided level and rejects levels the criterion does not have", () => {
    expect(makeCriterionResult(l, levelOutcome(levels, "pass"), cat)).toMatchObject({
      level: "pass",
      score: 0.7,
      met: true,
    });
    const bad = { ...levelOutcome(levels, "pass"), level: "great" };
    expect(() => makeCriterionResult(l, bad, cat)).toThrow(UnknownLevelError);
    expect(() => makeCriterionResult(l, bad, cat)).toThrow("catalog 'cq' › criterion 'l' › level");
    expect(() => makeCriterionResult(l, bad, cat)).toThrow(
      "unknown level 'great'; expected one of",
    );
    expect(
      thrownCode(() => makeCriterionResult(u, { ...unitOutcome(0.5), level: "pass" }, cat)),
    ).toBe("RESULT_INCONSISTENT");
  });

  it("reports a criterion that was not evaluated with no score and met null", () => {
    const r = makeCriterionResult(u, notEvaluatedOutcome("judge returned no JSON"), cat);
    expect(r).toMatchObject({
      evaluated: false,
      score: null,
      native: null,
      met: null,
      judgeError: "judge returned no JSON",
    });
    expect(CriterionResultSchema.parse(r)).toEqual(r);
  });

  it("rejects contradictory outcomes", () => {
    expect(
      thrownCode(() => makeCriterionResult(u, { ...unitOutcome(0.5), score: null }, cat)),
    ).toBe("RESULT_INCONSISTENT");
    expect(
      thrownCode(() => makeCriterionResult(u, { ...notEvaluatedOutcome("x"), score: 0.5 }, cat)),
    ).toBe("RESULT_INCONSISTENT");
    expect(thrownCode(() => makeCriterionResult(u, unitOutcome(1.5), cat))).toBe("SCALE_INVALID");
  });
});
