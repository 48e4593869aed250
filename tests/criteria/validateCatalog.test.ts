import { describe, expect, it } from "vitest";
import {
  type Catalog,
  CatalogSchema,
  type CriterionInput,
  normaliseWeights,
  validateCatalog,
} from "../../src/criteria/index.js";

function catalog(criteria: CriterionInput[], extra: Partial<Catalog> = {}): Catalog {
  return CatalogSchema.parse({ id: "t", name: "T", version: "1", criteria, ...extra });
}

const score = (id: string, weight: number, more: Partial<CriterionInput> = {}): CriterionInput => ({
  id,
  title: `Title ${id}`,
  description: `Description of ${id}`,
  weight,
  method: { kind: "score", scale: { min: 0, max: 1 } },
  ...more,
});

const levels = (scores: number[]) =>
  scores.map((s, i) => ({ id: `l${i}`, label: `L${i}`, description: `level ${i}`, score: s }));

function checks(c: Catalog) {
  return validateCatalog(c)
    .filter((f) => f.severity !== "info")
    .map((f) => [f.check, f.severity]);
}

describe("validateCatalog (the rubric format's meta-rubric)", () => {
  it("a well-formed catalog has no errors or warnings", () => {
    expect(checks(catalog([score("a", 0.5), score("b", 0.5)]))).toEqual([]);
  });

  it("needs at least one criterion", () => {
    expect(checks(catalog([]))).toEqual([["criteria_coverage", "error"]]);
  });

  it("flags duplicate ids as errors and duplicate titles / descriptions as warnings", () => {
    const c = catalog([
      score("a", 0.5),
      score("a", 0.25, { title: "Title A", description: "Other" }),
      score("c", 0.25, { description: "Description of a" }),
    ]);
    expect(checks(c)).toEqual([
      ["criteria_independence", "error"],
      ["criteria_independence", "warning"],
      ["criteria_independence", "warning"],
    ]);
  });

  it("warns when scored weights do not sum to 1 and normalises them", () => {
    const c = catalog([score("a", 2), score("b", 6)]);
    expect(checks(c)).toEqual([["weight_distribution", "warning"]]);
    expect(normaliseWeights(c).criteria.map((x) => x.weight)).toEqual([0.25, 0.75]);
  });

  it("accepts weights within 0.01 of 1 and leaves knockout weights out of the sum", () => {
    expect(checks(catalog([score("a", 0.333), score("b", 0.333), score("c", 0.333)]))).toEqual([]);
    const withKnockout = catalog([
      { ...score("k", 1), knockout: true, critical: true, method: { kind: "check" } },
      score("a", 0.4),
      score("b", 0.6),
    ]);
    expect(checks(withKnockout)).toEqual([]);
    expect(normaliseWeights(withKnockout)).toBe(withKnockout);
  });

  it("rejects a trivial or unreachable threshold and warns on extreme ones", () => {
    expect(checks(catalog([score("a", 1)], { passingThreshold: 0 }))).toEqual([
      ["threshold_reasonableness", "error"],
    ]);
    const capped = catalog(
      [{ ...score("a", 1), method: { kind: "levels", levels: levels([0, 0.5, 0.8]) } }],
      { passingThreshold: 0.9 },
    );
    expect(validateCatalog(capped)[0]?.message).toContain("unreachable");
    // A criterion's own threshold: 0 on 0–1, or the lowest level's score, passes every answer.
    expect(validateCatalog(catalog([score("a", 1, { passingThreshold: 0 })]))[0]?.message).toBe(
      "criterion passing threshold 0 is trivial: even its worst score (0) reaches it",
    );
    const floor = { kind: "levels" as const, levels: levels([0.25, 0.5, 1]) };
    expect(checks(catalog([{ ...score("a", 1), method: floor, passingThreshold: 0.25 }]))).toEqual([
      ["threshold_reasonableness", "error"],
    ]);
    expect(checks(catalog([{ ...score("a", 1), method: floor, passingThreshold: 0.3 }]))).toEqual(
      [],
    );
    expect(checks(catalog([score("a", 1)], { passingThreshold: 0.97 }))).toEqual([
      ["threshold_reasonableness", "warning"],
    ]);
    expect(checks(catalog([score("a", 1)], { passingThreshold: 0.2 }))).toEqual([
      ["threshold_reasonableness", "warning"],
    ]);
  });

  it("rejects a fundable threshold outside the status scale", () => {
    const c = catalog([score("a", 1)], {
      statusRules: { scale: { min: 1, max: 5, integer: true }, fundable: 6 },
    });
    expect(checks(c)).toEqual([["threshold_reasonableness", "error"]]);
  });

  it("requires levels ordered by score, either way, with unique ids", () => {
    const method = (s: number[]) => ({ kind: "levels" as const, levels: levels(s) });
    expect(checks(catalog([{ ...score("a", 1), method: method([0, 0.5, 1]) }]))).toEqual([]);
    expect(checks(catalog([{ ...score("a", 1), method: method([1, 0.5, 0]) }]))).toEqual([]);
    expect(checks(catalog([{ ...score("a", 1), method: method([0.5, 0, 1]) }]))).toEqual([
      ["level_ordering", "error"],
    ]);
  });

  it("notes missing guideline bands and warns on indistinct ones", () => {
    const same = { excellent: "x", good: "x", adequate: "y", poor: "z", inadequate: "w" };
    const c = catalog([
      { ...score("a", 1), method: { kind: "score", scale: { min: 0, max: 1 }, guidelines: same } },
    ]);
    expect(checks(c)).toEqual([["guideline_bands", "warning"]]);
    const info = validateCatalog(catalog([score("a", 1)])).find((f) => f.severity === "info");
    expect(info?.check).toBe("guideline_bands");
  });

  it("knows the point functions and checks their arguments", () => {
    const fn = (name: string, args: unknown): CriterionInput => ({
      ...score(name, 1),
      method: { kind: "function", name, args },
    });
    expect(checks(catalog([fn("contains", "x")]))).toEqual([]);
    expect(checks(catalog([fn("contains_maybe", "x")]))).toEqual([["function_reference", "error"]]);
    expect(checks(catalog([fn("word_count_between", "lots")]))).toEqual([
      ["function_reference", "error"],
    ]);
    expect(checks(catalog([fn("my.module:check", undefined)]))).toEqual([]);
  });
});
