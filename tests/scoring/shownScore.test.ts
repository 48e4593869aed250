import { describe, expect, it } from "vitest";
import { agreementText } from "../../src/scoring/agreement.js";
import { cutDown, shownScore, shownThreshold } from "../../src/scoring/shownScore.js";

describe("figures shown beside a verdict are cut down, never rounded up", () => {
  it("cuts toward minus infinity after dropping float noise", () => {
    expect(cutDown(0.7995, 3)).toBe("0.799");
    expect(cutDown(0.29, 3)).toBe("0.290"); // 0.29·1000 is 289.99999999999994
    expect(cutDown(0.8, 3)).toBe("0.800");
    expect(cutDown(-1 / 3, 3)).toBe("-0.334");
    expect(cutDown(-1 / 6, 3)).toBe("-0.167");
    expect(cutDown(-0.0001, 3)).toBe("-0.001");
    expect(cutDown(-0, 3)).toBe("0.000");
  });

  it("an agreement under its minimum never shows as reaching it", () => {
    expect(agreementText(0.7995)).toBe("0.799");
    expect(agreementText(2 / 3)).toBe("0.666");
    expect(agreementText(1)).toBe("1");
    expect(agreementText(-0.5)).toBe("-0.5");
    expect(agreementText(0.29)).toBe("0.29");
    expect(agreementText(null)).toBe("n/a");
  });

  it("0.7995 against 0.8 shows 79% or 0.79; 0.8 itself shows 80% and 0.80", () => {
    expect(shownScore(0.7995, "percent")).toBe("79%");
    expect(shownScore(0.7995)).toBe("0.79");
    expect(shownScore(0.8, "percent")).toBe("80%");
    expect(shownScore(0.8)).toBe("0.80");
    expect(shownScore(0.29, "percent")).toBe("29%"); // 0.29·100 is 28.999999999999996
  });

  it("beside a threshold with more decimals, the score shows as many", () => {
    // 0.803 misses 0.805: cut to two decimals both would read 0.80.
    expect(shownScore(0.803, "decimal", 0.805)).toBe("0.803");
    expect(shownThreshold(0.805)).toBe("0.805");
    expect(shownScore(0.803, "percent", 0.805)).toBe("80.3%");
    expect(shownThreshold(0.805, "percent")).toBe("80.5%");
    expect(shownScore(0.8049, "percent", 0.805)).toBe("80.4%");
    expect(shownThreshold(0.7)).toBe("0.70");
    expect(shownThreshold(0.75, "percent")).toBe("75%");
  });
});
