/**
 * The line that says why κ is 0 beside a high agreement, on figures worked out by hand: it is
 * said where κ ≈ 0 and agreement is high (one side passed nearly everything), and nowhere else.
 */
import { describe, expect, it } from "vitest";
import { kappaNote } from "../../src/service/pages/calibrationText.js";

const figure = (value: number) => ({ value, missing: null });

describe("kappaNote", () => {
  it("explains κ 0 beside 97.8% agreement: the judge passed 45 of 45, the reviewers 44 of 45", () => {
    // po = 44/45; pJ = 1, pR = 44/45: pe = 44/45, so κ = (po − pe)/(1 − pe) = 0.
    const note = kappaNote([
      {
        name: "Budget",
        table: { bothPass: 44, judgeOnlyPass: 1, reviewerOnlyPass: 0, bothFail: 0 },
        agreement: figure(44 / 45),
        kappa: figure(0),
      },
    ]);
    expect(note).toBe(
      "κ is 0 when the judge and the reviewers agree only as often as chance predicts from how " +
        "often each passes: here nearly every label passed (Budget: the judge passed 45 of 45, " +
        "the reviewers 44 of 45), so the 97.8% agreement says little about the judge.",
    );
  });

  it("says nothing where κ is 0 beside a low agreement, or where κ is not near 0", () => {
    // 2 of 4 agree, pJ = 1, pR = 1/2: κ 0 at 50% — nothing high to explain.
    const half = {
      name: "Costs",
      table: { bothPass: 2, judgeOnlyPass: 2, reviewerOnlyPass: 0, bothFail: 0 },
      agreement: figure(0.5),
      kappa: figure(0),
    };
    // 9 of 10 agree, pJ = pR = 1/2: pe = 1/2, κ = (0.9 − 0.5)/0.5 = 0.8.
    const real = {
      name: "Timeline",
      table: { bothPass: 5, judgeOnlyPass: 0, reviewerOnlyPass: 1, bothFail: 4 },
      agreement: figure(0.9),
      kappa: figure(0.8),
    };
    const missing = { ...real, kappa: { value: null, missing: "no-variance" as const } };
    expect(kappaNote([half, real, missing])).toBeUndefined();
  });
});
