import { describe, expect, it } from "vitest";
import { FIVE_POINT_SCALE, type Level, UNIT_SCALE } from "../../src/criteria/model.js";
import {
  checkToUnit,
  clampToScale,
  fromUnit,
  roundScore,
  topLevel,
  toUnit,
} from "../../src/scoring/scale.js";
import { thrownCode } from "../thrownCode.js";

const levels: Level[] = [
  { id: "fail", label: "Fail", description: "Unclear", score: 0, indicators: [] },
  { id: "pass", label: "Pass", description: "Understandable", score: 0.7, indicators: [] },
  { id: "excellent", label: "Excellent", description: "Crystal clear", score: 1, indicators: [] },
];

describe("scale conversions", () => {
  it("maps 1–5 to 0–1 as (s − 1) / 4", () => {
    expect([1, 2, 3, 4, 5].map((s) => toUnit(s, FIVE_POINT_SCALE))).toEqual([
      0, 0.25, 0.5, 0.75, 1,
    ]);
  });

  it("maps 0–1 back to the native scale", () => {
    expect(fromUnit(0.75, FIVE_POINT_SCALE)).toBe(4);
    expect(fromUnit(0.6, FIVE_POINT_SCALE)).toBe(3.4);
    expect(fromUnit(0.42, UNIT_SCALE)).toBe(0.42);
  });

  it("round-trips every point of a 0–10 scale", () => {
    const scale = { min: 0, max: 10, integer: true };
    for (let v = 0; v <= 10; v++) expect(fromUnit(toUnit(v, scale), scale)).toBe(v);
  });

  it("clamps values outside the scale", () => {
    expect(clampToScale(7, FIVE_POINT_SCALE)).toBe(5);
    expect(clampToScale(0, FIVE_POINT_SCALE)).toBe(1);
    expect(toUnit(9, FIVE_POINT_SCALE)).toBe(1);
    expect(toUnit(-3, FIVE_POINT_SCALE)).toBe(0);
  });

  it("rejects non-finite values and unit scores outside 0–1", () => {
    expect(thrownCode(() => toUnit(Number.NaN, FIVE_POINT_SCALE))).toBe("SCALE_INVALID");
    expect(thrownCode(() => fromUnit(1.2, FIVE_POINT_SCALE))).toBe("SCALE_INVALID");
    expect(() => toUnit(3, { min: 5, max: 1, integer: true })).toThrow(/greater than min/);
  });

  it("names the criterion in a scale error", () => {
    expect(() => fromUnit(Number.POSITIVE_INFINITY, UNIT_SCALE, { criterionId: "c9" })).toThrow(
      "criterion 'c9': unit score must be a finite number, got Infinity",
    );
  });

  it("turns pass/fail into 1/0", () => {
    expect(checkToUnit("pass")).toBe(1);
    expect(checkToUnit("fail")).toBe(0);
  });

  it("finds the top level", () => {
    expect(topLevel(levels)?.id).toBe("excellent");
  });

  it("rounds float noise away so totals come out as written", () => {
    // the TOON criteria dialect's example through the 0–1 path: 1 + (0.75·0.4 + 0.5·0.6)·4
    const raw = 1 + (0.75 * 0.4 + 0.5 * 0.6) * 4;
    expect(raw).not.toBe(3.4);
    expect(roundScore(raw)).toBe(3.4);
    expect(roundScore(0.1 + 0.2)).toBe(0.3);
    expect(roundScore(-0)).toBe(0);
  });
});
