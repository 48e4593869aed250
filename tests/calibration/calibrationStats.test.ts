import { describe, expect, it } from "vitest";
import {
  agreementTable,
  averageRanks,
  cohenKappa,
  observedAgreement,
  spearmanRho,
} from "../../src/calibration/figures.js";
import { sweepThresholds } from "../../src/calibration/report.js";

/** A table from its four cells, written out as pass/fail pairs. */
function pairs(bothPass: number, judgeOnly: number, reviewerOnly: number, bothFail: number) {
  const repeat = (n: number, judge: boolean, reviewer: boolean) =>
    Array.from({ length: n }, () => ({ judge, reviewer }));
  return [
    ...repeat(bothPass, true, true),
    ...repeat(judgeOnly, true, false),
    ...repeat(reviewerOnly, false, true),
    ...repeat(bothFail, false, false),
  ];
}

describe("Cohen's kappa", () => {
  it("matches the hand computation of a 40/10/5/45 table", () => {
    // n = 100; po = (40 + 45) / 100 = 0.85
    // judge passes (40 + 10) / 100 = 0.5, reviewer passes (40 + 5) / 100 = 0.45
    // pe = 0.5·0.45 + 0.5·0.55 = 0.225 + 0.275 = 0.5
    // κ = (0.85 − 0.5) / (1 − 0.5) = 0.70
    const table = agreementTable(pairs(40, 10, 5, 45));
    expect(table).toEqual({ bothPass: 40, judgeOnlyPass: 10, reviewerOnlyPass: 5, bothFail: 45 });
    expect(observedAgreement(table).value).toBeCloseTo(0.85, 12);
    expect(cohenKappa(table).value).toBeCloseTo(0.7, 12);
  });

  it("is 0 when the judge adds nothing over chance, and negative below chance", () => {
    // 25/25/25/25: po = 0.5, pJ = pR = 0.5, pe = 0.5 → κ = 0 (a real zero: agreement at chance).
    expect(cohenKappa(agreementTable(pairs(25, 25, 25, 25))).value).toBeCloseTo(0, 12);
    // 0/5/5/0: po = 0, pJ = pR = 0.5, pe = 0.5 → κ = (0 − 0.5) / 0.5 = −1.
    expect(cohenKappa(agreementTable(pairs(0, 5, 5, 0))).value).toBeCloseTo(-1, 12);
  });

  it("reports too few labels and no variance instead of a number", () => {
    expect(cohenKappa(agreementTable(pairs(1, 0, 0, 0)))).toEqual({
      value: null,
      missing: "too-few-labels",
    });
    expect(observedAgreement(agreementTable([]))).toEqual({
      value: null,
      missing: "too-few-labels",
    });
    // Every label passed by both: po = 1 and pe = 1, so κ is 0/0 — not 1.
    expect(cohenKappa(agreementTable(pairs(7, 0, 0, 0)))).toEqual({
      value: null,
      missing: "no-variance",
    });
  });
});

describe("Spearman's rho", () => {
  it("gives tied values the average of their ranks", () => {
    // sorted: 0.2 (1), 0.4 0.4 (ranks 2 and 3 → 2.5 each), 0.6 (4), 0.8 (5)
    expect(averageRanks([0.6, 0.4, 0.8, 0.2, 0.4])).toEqual([4, 2.5, 5, 1, 2.5]);
    expect(averageRanks([0.5, 0.5, 0.5])).toEqual([2, 2, 2]);
  });

  it("matches the textbook example without ties (IQ against hours of TV): ρ = −29/165", () => {
    // The classic example: Σd² = 194 over n = 10, ρ = 1 − 6·194 / (10·99) = −29/165 ≈ −0.1758.
    const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
    const rho = spearmanRho(iq.map((judge, i) => ({ judge, reviewer: tv[i] ?? 0 })));
    expect(rho.value).toBeCloseTo(-29 / 165, 12);
  });

  it("matches a hand computation with ties on both sides: ρ = 35/38", () => {
    // judge    0.2 0.4 0.4 0.6 0.8 → ranks 1 2.5 2.5 4 5   (mean 3; deviations −2 −.5 −.5 1 2)
    // reviewer 0.1 0.3 0.5 0.5 0.9 → ranks 1 2 3.5 3.5 5   (mean 3; deviations −2 −1 .5 .5 2)
    // Σdx·dy = 4 + .5 − .25 + .5 + 4 = 8.75; Σdx² = 9.5; Σdy² = 9.5; ρ = 8.75 / 9.5 = 35/38
    const judge = [0.2, 0.4, 0.4, 0.6, 0.8];
    const reviewer = [0.1, 0.3, 0.5, 0.5, 0.9];
    const rho = spearmanRho(judge.map((j, i) => ({ judge: j, reviewer: reviewer[i] ?? 0 })));
    expect(rho.value).toBeCloseTo(35 / 38, 12);
  });

  it("reports too few labels and no variance instead of a number", () => {
    expect(spearmanRho([{ judge: 0.4, reviewer: 0.9 }])).toEqual({
      value: null,
      missing: "too-few-labels",
    });
    // The reviewer gave the same score throughout: a rank correlation with a constant is undefined.
    expect(
      spearmanRho([
        { judge: 0.2, reviewer: 0.5 },
        { judge: 0.9, reviewer: 0.5 },
      ]),
    ).toEqual({ value: null, missing: "no-variance" });
  });
});

describe("threshold sweep", () => {
  // Reviewer fails 0.5, 0.55 and 0.6 and passes 0.65, 0.7 and 0.8.
  const labels = [
    { judgeScore: 0.5, reviewerPass: false },
    { judgeScore: 0.55, reviewerPass: false },
    { judgeScore: 0.6, reviewerPass: false },
    { judgeScore: 0.65, reviewerPass: true },
    { judgeScore: 0.7, reviewerPass: true },
    { judgeScore: 0.8, reviewerPass: true },
  ];

  it("finds the threshold that agrees best, nearest the current one on a tie", () => {
    // At the current 0.7 the judge fails 0.65, which the reviewer passed: 5 of 6 agree.
    // Every threshold in (0.6, 0.65] agrees on all 6: 0.61 … 0.65 on the grid; 0.65 is nearest 0.7.
    const sweep = sweepThresholds(labels, 0.7);
    expect(sweep?.compared).toBe(6);
    expect(sweep?.current).toEqual({ threshold: 0.7, agreed: 5, agreement: 5 / 6 });
    expect(sweep?.best).toEqual({ threshold: 0.65, agreed: 6, agreement: 1 });
    expect(sweep?.curve).toHaveLength(101);
    // At 0: everything passes, the 3 reviewer passes agree. At 1: everything fails, 3 agree.
    expect(sweep?.curve[0]).toEqual({ threshold: 0, agreed: 3, agreement: 0.5 });
    expect(sweep?.curve[100]).toEqual({ threshold: 1, agreed: 3, agreement: 0.5 });
    // From a current threshold below the band, its lowest grid point 0.61 is the nearest.
    expect(sweepThresholds(labels, 0.3)?.best).toEqual({
      threshold: 0.61,
      agreed: 6,
      agreement: 1,
    });
  });

  it("keeps the current threshold when nothing does better", () => {
    // Already perfect at 0.625 (between two grid points): the best is the current threshold.
    expect(sweepThresholds(labels, 0.625)?.best).toEqual({
      threshold: 0.625,
      agreed: 6,
      agreement: 1,
    });
  });

  it("prefers the lower threshold when two are equally near", () => {
    // Reviewer passes 0.3, 0.7 and 0.9 and fails 0.5:
    // t ≤ 0.3 passes everything and gets only 0.5 wrong: 3 of 4;
    // t ∈ (0.3, 0.5] gets 0.3 and 0.5 wrong: 2 of 4;
    // t ∈ (0.5, 0.7] gets only 0.3 wrong: 3 of 4;
    // t ∈ (0.7, 0.9] gets 0.3 and 0.7 wrong: 2; above 0.9 only 0.5 agrees: 1.
    const twoBands = [
      { judgeScore: 0.3, reviewerPass: true },
      { judgeScore: 0.5, reviewerPass: false },
      { judgeScore: 0.7, reviewerPass: true },
      { judgeScore: 0.9, reviewerPass: true },
    ];
    // Current 0.45 scores 2 of 4; the nearest 3-of-4 thresholds are 0.3 (0.15 below) and
    // 0.51 (0.06 above) — 0.51 wins on distance.
    expect(sweepThresholds(twoBands, 0.45)?.best).toEqual({
      threshold: 0.51,
      agreed: 3,
      agreement: 0.75,
    });
    // Current 0.405: 0.3 is 0.105 below and 0.51 is 0.105 above — equal, the lower one wins.
    expect(sweepThresholds(twoBands, 0.405)?.best).toEqual({
      threshold: 0.3,
      agreed: 3,
      agreement: 0.75,
    });
  });

  it("needs at least two labels", () => {
    expect(sweepThresholds([{ judgeScore: 0.9, reviewerPass: true }], 0.7)).toBeUndefined();
  });
});
