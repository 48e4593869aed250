import { describe, expect, it } from "vitest";
import type { CatalogInput, CriterionInput } from "../../src/criteria/model.js";
import type { CriterionOutcome } from "../../src/scoring/result.js";
import { type ResultOverrides, settleResult } from "../../src/scoring/scoreCatalog.js";
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

      // One vocabulary: pass ⇔ passed ⇔ FUNDABLE (where there is a status); the summary's
      // first word is the verdict's.
      expect(s.verdict === "pass", context).toBe(s.passed);
      if (s.status !== undefined) expect(s.status === "FUNDABLE", context).toBe(s.passed);
      const word = { pass: "PASSED", borderline: "BORDERLINE", fail: "FAILED" }[s.verdict];
      expect(firstLine, context).toMatch(new RegExp(`^Evaluation ${word} for catalog`));
      for (const other of ["PASSED", "BORDERLINE", "FAILED"].filter((w) => w !== word)) {
        expect(s.feedback, context).not.toContain(`Evaluation ${other}`);
      }
      if (s.passed) {
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

  it("a pass under a low threshold is a pass verdict, though 0.55 is under the borderline band", () => {
    const low = { ...twoScores, passingThreshold: 0.5 };
    const s = settleResult(low, score(low, { a: unitOutcome(0.55), b: unitOutcome(0.55) }));
    expect(s).toMatchObject({ passed: true, verdict: "pass" });
    expect(s.feedback.split("\n")[0]).toBe("Evaluation PASSED for catalog 'Test Catalog'.");
  });

  it("0.75 under a 0.7 threshold passes: verdict pass, not the score band's borderline", () => {
    const s = settleResult(
      twoScores,
      score(twoScores, { a: unitOutcome(0.75), b: unitOutcome(0.75) }),
    );
    expect(s).toMatchObject({ passed: true, verdict: "pass" });
  });

  it("0.85 under a 0.9 threshold does not pass: borderline, and the summary says so", () => {
    const high = { ...twoScores, passingThreshold: 0.9 };
    const s = settleResult(high, score(high, { a: unitOutcome(0.85), b: unitOutcome(0.85) }));
    expect(s).toMatchObject({ passed: false, verdict: "borderline" });
    expect(s.feedback.split("\n")[0]).toBe(
      "Evaluation BORDERLINE for catalog 'Test Catalog': not passed, but close.",
    );
  });

  it("0.5 under a 0.7 threshold: fail, and the summary says FAILED", () => {
    const s = settleResult(
      twoScores,
      score(twoScores, { a: unitOutcome(0.5), b: unitOutcome(0.5) }),
    );
    expect(s).toMatchObject({ passed: false, verdict: "fail" });
    expect(s.feedback.split("\n")[0]).toBe("Evaluation FAILED for catalog 'Test Catalog'.");
  });

  it("FUNDABLE on the status rules with a 0.75 score: passed and pass, never borderline beside FUNDABLE", () => {
    const rated = catalog({ ...twoScores, statusRules: { fundable: 3.5 } });
    const scored = score(rated, { a: unitOutcome(0.75), b: unitOutcome(0.75) });
    expect(scored.status).toBe("FUNDABLE");
    const s = settleResult(rated, scored);
    expect(s).toMatchObject({ passed: true, verdict: "pass", status: "FUNDABLE" });
  });

  it("a FUNDABLE result held for review becomes REVIEW_REQUIRED", () => {
    const rated = catalog({ ...twoScores, statusRules: { fundable: 4 } });
    const scored = score(rated, { a: unitOutcome(1), b: unitOutcome(1) });
    expect(scored.status).toBe("FUNDABLE");
    const s = settleResult(rated, scored, { humanReview: ["possible prompt injection"] });
    expect(s).toMatchObject({ passed: false, status: "REVIEW_REQUIRED", verdict: "borderline" });
  });
});

describe("settleResult over every combination of what scoring and the overrides say", () => {
  const one = catalog({
    passingThreshold: 0.7,
    criteria: [
      {
        id: "a",
        title: "A",
        description: "A?",
        weight: 1,
        method: { kind: "score", scale: { min: 0, max: 1 } },
      },
    ],
  });
  const evaluated = score(one, { a: unitOutcome(0.7) }).criteria;
  const unjudged = score(one, { a: notEvaluated("judge timed out") }).criteria;
  const verdicts = ["pass", "borderline", "fail"] as const;
  const statuses = [undefined, "FUNDABLE", "REVIEW_REQUIRED", "REJECTED"] as const;
  const holds = [[], ["possible prompt injection"]];
  const rejections = [undefined, "", "over budget"];
  const combos = [true, false].flatMap((passed) =>
    verdicts.flatMap((verdict) =>
      statuses.flatMap((status) =>
        holds.flatMap((humanReview) =>
          rejections.flatMap((validatorRejection) =>
            [evaluated, unjudged].map((criteria) => ({
              scored: {
                overallScore: 0.7,
                passed,
                verdict,
                ...(status === undefined ? {} : { status }),
                criteria,
              },
              overrides: {
                humanReview,
                ...(validatorRejection === undefined ? {} : { validatorRejection }),
              },
            })),
          ),
        ),
      ),
    ),
  );

  it("covers 288 combinations", () => {
    expect(combos).toHaveLength(2 * 3 * 4 * 2 * 3 * 2);
  });

  it("settles each as the gate-outcome rule says, and no two fields ever disagree", () => {
    for (const { scored, overrides } of combos) {
      const s = settleResult(one, scored, overrides);
      const context = JSON.stringify({
        ...scored,
        criteria: scored.criteria[0]?.evaluated,
        overrides,
      });
      const held = overrides.humanReview.length > 0;
      const rejected = overrides.validatorRejection !== undefined;
      const statusAllows = scored.status === undefined || scored.status === "FUNDABLE";
      const anyEvaluated = scored.criteria.some((c) => c.evaluated);
      // The rule, as docs/criteria-configuration.md ("Gate outcomes") states it.
      const passed = scored.passed && statusAllows && !held && !rejected && anyEvaluated;
      const status = scored.status === "FUNDABLE" && !passed ? "REVIEW_REQUIRED" : scored.status;
      const verdict = passed
        ? "pass"
        : rejected || status === "REJECTED"
          ? "fail"
          : scored.verdict === "pass"
            ? "borderline"
            : scored.verdict;
      expect({ passed: s.passed, status: s.status, verdict: s.verdict }, context).toEqual({
        passed,
        status,
        verdict,
      });
      // The invariants, whatever the rule's details.
      expect(s.verdict === "pass", context).toBe(s.passed);
      if (s.status !== undefined) expect(s.status === "FUNDABLE", context).toBe(s.passed);
      if (s.status === "REJECTED" || rejected) expect(s.verdict, context).toBe("fail");
      const first = s.feedback.split("\n")[0] ?? "";
      const word = { pass: "PASSED", borderline: "BORDERLINE", fail: "FAILED" }[s.verdict];
      expect(first, context).toMatch(new RegExp(`^Evaluation ${word} `));
    }
  });
});
