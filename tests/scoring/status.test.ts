import { describe, expect, it } from "vitest";
import { StatusRulesSchema } from "../../src/criteria/model.js";
import { decideFundingStatus } from "../../src/scoring/scoreCatalog.js";

const rules = StatusRulesSchema.parse({});
const held = { knockoutFailed: false, held: true };

describe("decideFundingStatus", () => {
  it("gives REVIEW_REQUIRED at exactly 3.4 with the default fundable 4.0 (TC-CRI-03)", () => {
    const d = decideFundingStatus({ overallScore: 0.6, zeroWeight: false }, rules, held);
    expect(d.nativeTotal).toBe(3.4);
    expect(d.status).toBe("REVIEW_REQUIRED");
  });

  it("gives FUNDABLE at exactly the fundable threshold, not just below", () => {
    expect(
      decideFundingStatus({ overallScore: 0.75, zeroWeight: false }, rules, held),
    ).toMatchObject({ status: "FUNDABLE", nativeTotal: 4 });
    expect(
      decideFundingStatus({ overallScore: 0.7499, zeroWeight: false }, rules, held).status,
    ).toBe("REVIEW_REQUIRED");
  });

  it("gives REJECTED on a failed knockout whatever the total", () => {
    const d = decideFundingStatus({ overallScore: 1, zeroWeight: false }, rules, {
      knockoutFailed: true,
      held: false,
    });
    expect(d.status).toBe("REJECTED");
    expect(d.nativeTotal).toBe(5);
  });

  it("gives REJECTED below rejectBelow, on the rules' own scale", () => {
    const tenPoint = StatusRulesSchema.parse({
      scale: { min: 0, max: 10 },
      fundable: 7,
      rejectBelow: 4,
    });
    expect(
      decideFundingStatus({ overallScore: 0.39, zeroWeight: false }, tenPoint, held),
    ).toMatchObject({
      status: "REJECTED",
      nativeTotal: 3.9,
    });
    expect(
      decideFundingStatus({ overallScore: 0.4, zeroWeight: false }, tenPoint, held).status,
    ).toBe("REVIEW_REQUIRED");
    expect(
      decideFundingStatus({ overallScore: 0.7, zeroWeight: false }, tenPoint, held).status,
    ).toBe("FUNDABLE");
  });

  it("is never FUNDABLE while a gate does not hold", () => {
    // A required criterion not evaluated: no knockout failed, but the gates do not hold.
    const d = decideFundingStatus({ overallScore: 1, zeroWeight: false }, rules, {
      knockoutFailed: false,
      held: false,
    });
    expect(d.status).toBe("REVIEW_REQUIRED");
  });

  it("has no total and is REVIEW_REQUIRED without weighted evidence, even with rejectBelow", () => {
    const strict = StatusRulesSchema.parse({ rejectBelow: 2 });
    const d = decideFundingStatus({ overallScore: 0, zeroWeight: true }, strict, held);
    expect(d.status).toBe("REVIEW_REQUIRED");
    expect(d.nativeTotal).toBeUndefined();
  });
});
