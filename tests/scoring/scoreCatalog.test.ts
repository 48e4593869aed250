import { describe, expect, it } from "vitest";
import { scoreCatalogResult } from "../../src/scoring/scoreCatalog.js";
import { thrownCode } from "../thrownCode.js";
import {
  catalog,
  checkOutcome,
  notEvaluated,
  resultsFor,
  score,
  scoreCriterion,
  scoreOutcome,
  seedCatalog,
  unitCriterion,
  unitOutcome,
} from "./helpers.js";

describe("scoreCatalogResult — TOON criteria dialect", () => {
  it("TC-CRI-03: c2 = 4 (0.4), c3 = 3 (0.6), knockout c1 passed → exactly 3.4, REVIEW_REQUIRED", () => {
    const r = score(seedCatalog(), {
      c1: checkOutcome("pass"),
      c2: scoreOutcome(4),
      c3: scoreOutcome(3),
    });
    expect(r.nativeTotal).toBe(3.4);
    expect(r.overallScore).toBe(0.6);
    expect(r.status).toBe("REVIEW_REQUIRED");
    expect(r.passed).toBe(false);
    expect(r.verdict).toBe("borderline");
    expect(r.gateFailures).toEqual([]);
    expect(r.scores).toEqual({ c1: 1, c2: 0.75, c3: 0.5 });
  });

  it("TC-CRI-02: knockout fail → REJECTED, the total still excludes the knockout", () => {
    const r = score(seedCatalog(), {
      c1: checkOutcome("fail", "Company is based in Munich."),
      c2: scoreOutcome(5),
      c3: scoreOutcome(5),
    });
    expect(r.status).toBe("REJECTED");
    expect(r.passed).toBe(false);
    expect(r.verdict).toBe("fail");
    // c1's 0 with weight 1.0 would pull the total to 3 if it were counted
    expect(r.nativeTotal).toBe(5);
    expect(r.gateFailures.map((f) => [f.criterionId, f.kind])).toEqual([["c1", "knockout_failed"]]);
  });

  it("passed is true exactly when the status is FUNDABLE", () => {
    const cases = [
      [checkOutcome("pass"), scoreOutcome(4), scoreOutcome(4), "FUNDABLE"],
      [checkOutcome("pass"), scoreOutcome(5), scoreOutcome(3), "REVIEW_REQUIRED"],
      [checkOutcome("fail"), scoreOutcome(5), scoreOutcome(5), "REJECTED"],
      [checkOutcome("pass"), scoreOutcome(5), notEvaluated(), "REVIEW_REQUIRED"],
      [notEvaluated(), scoreOutcome(5), scoreOutcome(5), "REVIEW_REQUIRED"],
    ] as const;
    for (const [c1, c2, c3, status] of cases) {
      const r = score(seedCatalog(), { c1, c2, c3 });
      expect(r.status).toBe(status);
      expect(r.passed).toBe(status === "FUNDABLE");
    }
  });

  it("status rules replace the catalog threshold: FUNDABLE at 4.0 although 0.75 < 0.8", () => {
    const cat = catalog({
      passingThreshold: 0.8,
      statusRules: {},
      criteria: [scoreCriterion("a", 1)],
    });
    const r = score(cat, { a: scoreOutcome(4) });
    expect(r).toMatchObject({ status: "FUNDABLE", passed: true, nativeTotal: 4 });
  });

  it("rejects below rejectBelow", () => {
    const r = score(seedCatalog({ rejectBelow: 2.5 }), {
      c1: checkOutcome("pass"),
      c2: scoreOutcome(2),
      c3: scoreOutcome(2),
    });
    expect(r).toMatchObject({ status: "REJECTED", nativeTotal: 2, passed: false });
  });
});

describe("scoreCatalogResult — the evaluation node's rule (no status rules)", () => {
  const cat = catalog({
    passingThreshold: 0.7,
    criteria: [
      unitCriterion("critical", 0.5, { critical: true, passingThreshold: 0.6 }),
      unitCriterion("other", 0.5),
    ],
  });

  it("passes when gates hold and overall reaches the threshold (at the edge)", () => {
    const r = score(cat, { critical: unitOutcome(0.6), other: unitOutcome(0.8) });
    expect(r.overallScore).toBe(0.7);
    expect(r.passed).toBe(true);
    expect(r.status).toBeUndefined();
    expect(r.nativeTotal).toBeUndefined();
    expect(score(cat, { critical: unitOutcome(0.6), other: unitOutcome(0.79) }).passed).toBe(false);
  });

  it("a critical criterion below its threshold fails the whole even with a high overall", () => {
    const r = score(cat, { critical: unitOutcome(0.59), other: unitOutcome(1) });
    expect(r.overallScore).toBeCloseTo(0.795, 10);
    expect(r.passed).toBe(false);
    expect(r.verdict).toBe("fail");
    expect(r.gateFailures.map((f) => f.kind)).toEqual(["critical_unmet"]);
  });

  it("a required criterion not evaluated is left out of the average and blocks the pass", () => {
    const r = score(cat, { critical: unitOutcome(0.9), other: notEvaluated("timeout") });
    expect(r.overallScore).toBe(0.9);
    expect(r.notEvaluated).toEqual(["other"]);
    expect(r.scores).toEqual({ critical: 0.9 });
    expect(r.passed).toBe(false);
    expect(r.verdict).toBe("borderline");
    expect(r.gateFailures).toMatchObject([
      { criterionId: "other", kind: "required_not_evaluated" },
    ]);
  });

  it("an optional criterion not evaluated is only a warning", () => {
    const optional = catalog({
      criteria: [unitCriterion("a", 1), unitCriterion("b", 1, { required: false })],
    });
    const r = score(optional, { a: unitOutcome(0.9), b: notEvaluated("no context") });
    expect(r.passed).toBe(true);
    expect(r.verdict).toBe("pass");
    expect(r.notEvaluated).toEqual(["b"]);
    expect(r.gateFailures).toEqual([]);
    expect(r.warnings).toEqual([
      "optional 'Criterion b' (b) could not be evaluated and is left out",
    ]);
  });

  it("zero total weight: overall 0 with a warning, never a pass, not a fail verdict", () => {
    const zero = catalog({
      passingThreshold: 0,
      criteria: [unitCriterion("a", 0), unitCriterion("b", 0)],
    });
    const r = score(zero, { a: unitOutcome(1), b: unitOutcome(1) });
    expect(r.overallScore).toBe(0);
    expect(r.passed).toBe(false);
    expect(r.verdict).toBe("borderline");
    expect(r.warnings[0]).toMatch(/^no weighted score/);
  });
});

describe("scoreCatalogResult — input checks", () => {
  const cat = seedCatalog();
  const good = () =>
    resultsFor(cat, { c1: checkOutcome("pass"), c2: scoreOutcome(4), c3: scoreOutcome(3) });

  it("returns the results in catalog order", () => {
    const r = scoreCatalogResult(cat, good().reverse());
    expect(r.criteria.map((c) => c.id)).toEqual(["c1", "c2", "c3"]);
  });

  it("rejects missing, unknown and duplicated results", () => {
    const results = good();
    expect(() => scoreCatalogResult(cat, results.slice(1))).toThrow(
      "catalog 'ifb_profi' › criterion 'c1': no result for this criterion",
    );
    const [first] = results;
    if (first === undefined) throw new Error("setup");
    expect(thrownCode(() => scoreCatalogResult(cat, [...results, { ...first, id: "c9" }]))).toBe(
      "CRITERION_RESULTS_MISMATCH",
    );
    expect(() => scoreCatalogResult(cat, [...results, first])).toThrow(/more than one result/);
  });

  it("rejects results whose weight or gate flags disagree with the catalog", () => {
    const results = good().map((r) => (r.id === "c1" ? { ...r, knockout: false } : r));
    expect(() => scoreCatalogResult(cat, results)).toThrow(
      "catalog 'ifb_profi' › criterion 'c1' › knockout: result says false but the catalog says true",
    );
  });

  it("rejects results whose met contradicts score and threshold", () => {
    const results = good().map((r) => (r.id === "c3" ? { ...r, met: true } : r));
    expect(thrownCode(() => scoreCatalogResult(cat, results))).toBe("RESULT_INCONSISTENT");
  });
});
