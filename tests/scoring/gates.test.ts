import { describe, expect, it } from "vitest";
import { evaluateGates } from "../../src/scoring/gates.js";
import {
  catalog,
  checkOutcome,
  notEvaluated,
  resultsFor,
  scoreCriterion,
  scoreOutcome,
  seedCatalog,
  unitCriterion,
  unitOutcome,
} from "./helpers.js";

describe("evaluateGates", () => {
  it("holds when knockouts pass and critical criteria reach their thresholds", () => {
    const cat = seedCatalog();
    const gates = evaluateGates(
      resultsFor(cat, { c1: checkOutcome("pass"), c2: scoreOutcome(1), c3: scoreOutcome(1) }),
    );
    expect(gates).toMatchObject({ held: true, failed: false, blocked: false, failures: [] });
  });

  it("fails on a failed knockout check", () => {
    const cat = seedCatalog();
    const gates = evaluateGates(
      resultsFor(cat, { c1: checkOutcome("fail"), c2: scoreOutcome(5), c3: scoreOutcome(5) }),
    );
    expect(gates.knockoutFailed).toBe(true);
    expect(gates.failed).toBe(true);
    expect(gates.failures).toHaveLength(1);
    expect(gates.failures[0]).toMatchObject({
      criterionId: "c1",
      kind: "knockout_failed",
      score: 0,
    });
    expect(gates.failures[0]?.message).toContain("'Hamburg Base' (c1) failed");
  });

  it("fails a critical criterion below its own threshold, else the catalog's", () => {
    const cat = catalog({
      passingThreshold: 0.5,
      criteria: [
        unitCriterion("own", 1, { critical: true, passingThreshold: 0.8 }),
        unitCriterion("inherited", 1, { critical: true }),
        unitCriterion("plain", 1, { passingThreshold: 0.9 }),
      ],
    });
    const gates = evaluateGates(
      resultsFor(cat, {
        own: unitOutcome(0.79),
        inherited: unitOutcome(0.5),
        plain: unitOutcome(0.1),
      }),
    );
    expect(gates.failures.map((f) => [f.criterionId, f.kind, f.threshold])).toEqual([
      ["own", "critical_unmet", 0.8],
    ]);
    expect(gates.knockoutFailed).toBe(false);
  });

  it("fails on an unmet required (critical) rubric item — the JSON judge contract", () => {
    const cat = catalog({
      criteria: [
        {
          id: "r1",
          title: "Budget table",
          description: "Has a budget table",
          weight: 1,
          critical: true,
          method: { kind: "check" },
        },
        {
          id: "r2",
          title: "Timeline",
          description: "Has a timeline",
          weight: 1,
          method: { kind: "check" },
        },
      ],
    });
    const unmetOptional = evaluateGates(
      resultsFor(cat, { r1: checkOutcome("pass"), r2: checkOutcome("fail") }),
    );
    expect(unmetOptional.held).toBe(true);
    const unmetRequired = evaluateGates(
      resultsFor(cat, { r1: checkOutcome("fail"), r2: checkOutcome("pass") }),
    );
    expect(unmetRequired.failures.map((f) => f.kind)).toEqual(["critical_unmet"]);
  });

  it("blocks (but does not fail) when a required criterion was not evaluated", () => {
    const cat = catalog({ criteria: [scoreCriterion("a", 1), scoreCriterion("b", 1)] });
    const gates = evaluateGates(
      resultsFor(cat, { a: scoreOutcome(5), b: notEvaluated("model unreachable") }),
    );
    expect(gates).toMatchObject({ held: false, failed: false, blocked: true });
    expect(gates.failures[0]).toMatchObject({
      criterionId: "b",
      kind: "required_not_evaluated",
      score: null,
    });
    expect(gates.failures[0]?.message).toContain("model unreachable");
  });

  it("only warns when an optional criterion was not evaluated", () => {
    const cat = catalog({
      criteria: [scoreCriterion("a", 1), scoreCriterion("b", 1, { required: false })],
    });
    const gates = evaluateGates(
      resultsFor(cat, { a: scoreOutcome(5), b: notEvaluated("no context") }),
    );
    expect(gates.held).toBe(true);
    expect(gates.failures).toEqual([]);
    expect(gates.warnings).toEqual([
      "optional 'Criterion b' (b) could not be evaluated and is left out",
    ]);
  });

  it("blocks when a knockout could not be evaluated, even if marked optional", () => {
    const cat = catalog({
      criteria: [
        {
          id: "k",
          title: "Location",
          description: "In Hamburg?",
          weight: 1,
          knockout: true,
          required: false,
          method: { kind: "check" },
        },
        scoreCriterion("a", 1),
      ],
    });
    const gates = evaluateGates(resultsFor(cat, { k: notEvaluated(), a: scoreOutcome(5) }));
    expect(gates.failures.map((f) => f.kind)).toEqual(["critical_not_evaluated"]);
    expect(gates.blocked).toBe(true);
    expect(gates.knockoutFailed).toBe(false);
  });
});
