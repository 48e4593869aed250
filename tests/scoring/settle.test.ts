import { describe, expect, it } from "vitest";
import type { CatalogInput, CriterionInput } from "../../src/criteria/model.js";
import type { CriterionOutcome } from "../../src/scoring/index.js";
import { type ResultOverrides, settleResult } from "../../src/scoring/index.js";
import { catalog, checkOutcome, notEvaluated, score, unitOutcome } from "./helpers.js";

/** mulberry32: a small seeded generator, so every run draws the same cases. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Draw {
  catalog: Partial<CatalogInput> & Pick<CatalogInput, "criteria">;
  outcomes: Record<string, CriterionOutcome>;
  overrides: ResultOverrides;
}

function drawCase(random: () => number): Draw {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;
  const step = () => Math.round(random() * 20) / 20;
  const count = 1 + Math.floor(random() * 5);
  const criteria: CriterionInput[] = [];
  const outcomes: Record<string, CriterionOutcome> = {};
  for (let i = 0; i < count; i++) {
    const id = `k${i}`;
    const isCheck = chance(0.3);
    criteria.push({
      id,
      title: `Criterion ${id}`,
      description: `Judge ${id}.`,
      weight: pick([0, 0.2, 0.5, 1]),
      critical: chance(0.25),
      knockout: isCheck && chance(0.5),
      required: chance(0.7),
      ...(chance(0.4) ? { passingThreshold: step() } : {}),
      method: isCheck ? { kind: "check" } : { kind: "score", scale: { min: 0, max: 1 } },
    });
    if (chance(0.2)) outcomes[id] = notEvaluated(pick(["judge timed out", "unparseable answer"]));
    else outcomes[id] = isCheck ? checkOutcome(pick(["pass", "fail"])) : unitOutcome(step());
  }
  const statusRules = chance(0.4)
    ? {
        fundable: pick([3, 3.5, 4, 4.5]),
        ...(chance(0.5) ? { rejectBelow: pick([2, 2.5, 3]) } : {}),
      }
    : undefined;
  const overrides: ResultOverrides = {
    ...(chance(0.25) ? { humanReview: ["possible prompt injection in the content"] } : {}),
    ...(chance(0.25) ? { validatorRejection: pick(["", "the panel requires 90%"]) } : {}),
  };
  return {
    catalog: {
      passingThreshold: step(),
      ...(statusRules === undefined ? {} : { statusRules }),
      criteria,
    },
    outcomes,
    overrides,
  };
}

describe("settleResult over random outcome mixes", () => {
  const random = seededRandom(20_251_123);
  const cases = Array.from({ length: 400 }, () => drawCase(random));

  it("draws every kind of outcome (the generator covers the space)", () => {
    const settled = cases.map((c) => {
      const cat = catalog(c.catalog);
      return settleResult(cat, score(cat, c.outcomes), c.overrides);
    });
    const seen = new Set(settled.map((s) => `${s.passed}/${s.verdict}/${s.status ?? "-"}`));
    for (const expected of [
      "true/pass/-",
      "false/fail/-",
      "false/borderline/-",
      "true/pass/FUNDABLE",
      "false/fail/REJECTED",
      "false/borderline/REVIEW_REQUIRED",
    ]) {
      expect(seen).toContain(expected);
    }
    expect(settled.some((s) => s.humanReviewRequired && s.verdict === "borderline")).toBe(true);
    expect(settled.some((s) => s.validatorRejection !== undefined)).toBe(true);
  });

  it("never says pass in one field and fail in another", () => {
    for (const drawn of cases) {
      const cat = catalog(drawn.catalog);
      const s = settleResult(cat, score(cat, drawn.outcomes), drawn.overrides);
      const context = JSON.stringify(drawn);
      const firstLine = s.feedback.split("\n")[0] ?? "";
      const held = (drawn.overrides.humanReview ?? []).length > 0;
      const rejected = drawn.overrides.validatorRejection !== undefined;

      if (s.passed) {
        expect(s.verdict, context).not.toBe("fail");
        expect([undefined, "FUNDABLE"], context).toContain(s.status);
        expect(held || rejected, context).toBe(false);
        // A pass needs every gate checked and held, and some evidence.
        for (const criterion of cat.criteria) {
          const outcome = drawn.outcomes[criterion.id];
          if (criterion.required || criterion.critical || criterion.knockout) {
            expect(outcome?.evaluated, context).toBe(true);
          }
        }
        expect(
          Object.values(drawn.outcomes).some((o) => o.evaluated),
          context,
        ).toBe(true);
        expect(firstLine, context).toMatch(/^Evaluation PASSED/);
        expect(s.feedback, context).not.toContain("FAILED");
      } else {
        expect(s.verdict, context).not.toBe("pass");
        expect(s.status, context).not.toBe("FUNDABLE");
        expect(firstLine, context).toMatch(/^Evaluation FAILED/);
        expect(s.feedback, context).not.toContain("PASSED");
      }
      if (s.status === "REJECTED" || rejected) expect(s.verdict, context).toBe("fail");
      if (held && !rejected && s.status !== "REJECTED") {
        expect(s.verdict, context).not.toBe("pass");
      }
      expect(s.humanReviewRequired).toBe(held);
      expect(s.feedback.includes("Held for human review"), context).toBe(held);
      expect(s.feedback.includes("Rejected by the custom validator"), context).toBe(rejected);
      if (s.status !== undefined) expect(s.feedback).toContain(`Funding status: ${s.status}`);
    }
  });

  it("an override only ever takes a pass away", () => {
    for (const drawn of cases) {
      const cat = catalog(drawn.catalog);
      const scored = score(cat, drawn.outcomes);
      const bare = settleResult(cat, scored);
      const overridden = settleResult(cat, scored, drawn.overrides);
      if (overridden.passed) expect(bare.passed).toBe(true);
      const hasOverride =
        (drawn.overrides.humanReview ?? []).length > 0 ||
        drawn.overrides.validatorRejection !== undefined;
      if (hasOverride) expect(overridden.passed).toBe(false);
    }
  });
});

describe("settleResult, case by case", () => {
  const twoScores = catalog({
    passingThreshold: 0.7,
    criteria: [
      {
        id: "a",
        title: "A",
        description: "A?",
        weight: 1,
        method: { kind: "score", scale: { min: 0, max: 1 } },
      },
      {
        id: "b",
        title: "B",
        description: "B?",
        weight: 1,
        method: { kind: "score", scale: { min: 0, max: 1 } },
      },
    ],
  });

  it("a forced human review of an 85% result: not passed, borderline, and the summary says why", () => {
    const scored = score(twoScores, { a: unitOutcome(0.85), b: unitOutcome(0.85) });
    expect(scored.verdict).toBe("pass");
    const s = settleResult(twoScores, scored, { humanReview: ["possible prompt injection"] });
    expect(s).toMatchObject({ passed: false, verdict: "borderline", humanReviewRequired: true });
    expect(s.feedback).toContain("Held for human review: possible prompt injection");
  });

  it("a validator rejection of an 85% result: not passed and a fail", () => {
    const scored = score(twoScores, { a: unitOutcome(0.85), b: unitOutcome(0.85) });
    const s = settleResult(twoScores, scored, { validatorRejection: "" });
    expect(s).toMatchObject({ passed: false, verdict: "fail", validatorRejection: "" });
    expect(s.feedback).toContain("Rejected by the custom validator\n");
  });

  it("a pass under a low threshold is never a fail verdict", () => {
    const low = { ...twoScores, passingThreshold: 0.5 };
    const s = settleResult(low, score(low, { a: unitOutcome(0.55), b: unitOutcome(0.55) }));
    expect(s).toMatchObject({ passed: true, verdict: "borderline" });
  });

  it("a FUNDABLE result held for review becomes REVIEW_REQUIRED", () => {
    const rated = catalog({ ...twoScores, statusRules: { fundable: 4 } });
    const scored = score(rated, { a: unitOutcome(1), b: unitOutcome(1) });
    expect(scored.status).toBe("FUNDABLE");
    const s = settleResult(rated, scored, { humanReview: ["possible prompt injection"] });
    expect(s).toMatchObject({ passed: false, status: "REVIEW_REQUIRED", verdict: "borderline" });
  });
});
