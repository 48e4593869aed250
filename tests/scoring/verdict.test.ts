import { describe, expect, it } from "vitest";
import { decideVerdict, verdictForScore } from "../../src/scoring/scoreCatalog.js";

const open = { failed: false, blocked: false };

describe("verdict bands", () => {
  it.each([
    [1, "pass"],
    [0.8, "pass"],
    [0.79999, "borderline"],
    [0.6, "borderline"],
    [0.59999, "fail"],
    [0, "fail"],
  ] as const)("%s → %s", (score, verdict) => {
    expect(verdictForScore(score)).toBe(verdict);
    expect(decideVerdict(score, open)).toBe(verdict);
  });

  it("treats float noise at the edge as the edge", () => {
    expect(verdictForScore(0.1 * 8)).toBe("pass");
    expect(verdictForScore(0.7999999999999999)).toBe("pass");
  });

  it("fails when a gate failed, whatever the score", () => {
    expect(decideVerdict(1, { failed: true, blocked: false })).toBe("fail");
    expect(decideVerdict(0.7, { failed: true, blocked: true })).toBe("fail");
  });

  it("never passes with a blocked gate, but does not turn it into a fail", () => {
    expect(decideVerdict(0.95, { failed: false, blocked: true })).toBe("borderline");
    expect(decideVerdict(0.65, { failed: false, blocked: true })).toBe("borderline");
    expect(decideVerdict(0.3, { failed: false, blocked: true })).toBe("fail");
  });

  it("is borderline when there was no weighted evidence and no gate failed", () => {
    expect(decideVerdict(0, { ...open, noEvidence: true })).toBe("borderline");
    expect(decideVerdict(0, { failed: true, blocked: false, noEvidence: true })).toBe("fail");
  });
});
