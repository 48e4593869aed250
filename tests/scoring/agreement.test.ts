import { describe, expect, it } from "vitest";
import { krippendorffAlpha, scaleAgreement, type Unit } from "../../src/scoring/agreement.js";

/**
 * Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C: four observers,
 * twelve units, values 1–5 with missing data. The paper gives α = 0.743 (nominal), 0.815
 * (ordinal) and 0.849 (interval).
 */
const n = null;
const OBSERVERS = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, n, n, n],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, n, 3],
  [n, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, n],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, n],
];
const TEXTBOOK: Unit[] = (OBSERVERS[0] ?? []).map((_, u) => OBSERVERS.map((o) => o[u] ?? null));

describe("krippendorffAlpha", () => {
  it("reproduces the textbook values for nominal, ordinal and interval data", () => {
    expect(krippendorffAlpha(TEXTBOOK, "nominal")).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(TEXTBOOK, "ordinal")).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(TEXTBOOK, "interval")).toBeCloseTo(0.849, 3);
  });

  it("a small case computed by hand", () => {
    // Two judges, four units: (1,1) (1,2) (2,2) (2,2). Coincidences o11 = 2, o12 = o21 = 1,
    // o22 = 4; n1 = 3, n2 = 5, n = 8. D_o = 2/8 = 0.25; D_e = (3·5 + 5·3)/(8·7) = 30/56.
    // α = 1 − 0.25 / (30/56) = 1 − 14/30 = 0.533 (nominal and interval agree for two values).
    const units: Unit[] = [
      [1, 1],
      [1, 2],
      [2, 2],
      [2, 2],
    ];
    expect(krippendorffAlpha(units, "nominal")).toBeCloseTo(0.533, 3);
    expect(krippendorffAlpha(units, "interval")).toBeCloseTo(0.533, 3);
  });

  it("perfect agreement with variation is 1; units with one value are left out", () => {
    expect(
      krippendorffAlpha(
        [
          [4, 4, 4],
          [2, 2, null],
          [5, null, null],
        ],
        "interval",
      ),
    ).toBe(1);
  });

  it("is null when there is nothing to compare: one pairable unit, or no variation", () => {
    expect(krippendorffAlpha([[4, 2, 3]], "interval")).toBe(null);
    expect(
      krippendorffAlpha(
        [
          [3, 3],
          [3, 3],
        ],
        "interval",
      ),
    ).toBe(null);
  });

  it("systematic disagreement is below 0", () => {
    // (1,2) (2,1): o12 = o21 = 2, n1 = n2 = 2, n = 4. D_o = 4/4 = 1; D_e = 8/12. α = 1 − 1.5 = −0.5.
    expect(
      krippendorffAlpha(
        [
          [1, 2],
          [2, 1],
        ],
        "nominal",
      ),
    ).toBe(-0.5);
  });
});

describe("scaleAgreement: one criterion against its scale", () => {
  it("1–5 interval: 5, 5, 4", () => {
    // D_o: ordered pairs 0, 1, 0, 1, 1, 1 → 4/6. D_e for uniform picks on 1–5: Σ(i−j)² over the
    // 25 ordered pairs = 100, /25 = 4. 1 − (4/6)/4 = 0.833.
    expect(
      scaleAgreement([5, 5, 4], { kind: "points", points: [1, 2, 3, 4, 5], metric: "interval" }),
    ).toBeCloseTo(0.833, 3);
  });

  it("pass / fail nominal: unanimous is 1, a 2–1 split is below 0", () => {
    const check = { kind: "points" as const, points: [0, 1], metric: "nominal" as const };
    expect(scaleAgreement([1, 1, 1], check)).toBe(1);
    // D_o = 4 mismatched ordered pairs of 6 = 0.667; D_e = 2/4 = 0.5: 1 − 4/3 = −0.333.
    expect(scaleAgreement([1, 1, 0], check)).toBeCloseTo(-0.333, 3);
  });

  it("a continuous 0–1 scale: 0.8, 0.9, 0.7", () => {
    // D_o = 2·(0.01 + 0.04 + 0.01)/6 = 0.02; D_e = 1/6: 1 − 0.12 = 0.88.
    expect(scaleAgreement([0.8, 0.9, 0.7], { kind: "range", min: 0, max: 1 })).toBe(0.88);
  });

  it("ordinal levels use ranks: levels scored 0, 0.2, 0.9, 1 and answers at ranks 1, 3, 3", () => {
    // Ranks 1, 3, 3: D_o = 4·(3−1)²/6 = 2.667; D_e on ranks 0–3 = 40/16 = 2.5: 1 − 1.0667 = −0.067.
    const levels = {
      kind: "points" as const,
      points: [0, 0.2, 0.9, 1],
      metric: "ordinal" as const,
    };
    expect(scaleAgreement([0.2, 1, 1], levels)).toBeCloseTo(-0.067, 3);
  });

  it("is null with fewer than two answers", () => {
    expect(scaleAgreement([4], { kind: "range", min: 0, max: 1 })).toBe(null);
  });
});
