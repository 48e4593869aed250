import { describe, expect, it } from "vitest";
import { calibrationReport, isEvalgateError } from "../../src/index.js";
import { labelHistory } from "../calibration/calibrationHistory.js";

describe("calibrationReport() over labels given directly", () => {
  it("keeps the labels of the scope: time window and content type", async () => {
    // Budget decisions d1…d21 fall on 2026-10-01 … 2026-10-21; summary s1, s2 on 2026-10-22.
    const report = await calibrationReport({
      labels: labelHistory(),
      since: "2026-10-02",
      until: new Date("2026-10-11T00:00:00.000Z"),
      contentType: "budget",
    });
    // d2 … d10: nine decisions, one c1 label each (c2 is on d1, outside the window).
    expect(report.overall.counts.labels).toBe(9);
    expect(report.gate.decisions).toBe(9);
    expect(report.contentTypes.map((group) => group.contentType)).toEqual(["budget"]);
    expect(report.window).toMatchObject({
      since: "2026-10-02T00:00:00.000Z",
      until: "2026-10-11T00:00:00.000Z",
      contentType: "budget",
      firstDecision: "2026-10-02T09:00:00.000Z",
      lastDecision: "2026-10-10T09:00:00.000Z",
    });
  });

  it("gives the hand-computed κ of the whole history", async () => {
    // See tests/calibration/calibrationReport.test.ts: c1 is an 8/2/1/9 table, κ = 0.70.
    const report = await calibrationReport({ labels: labelHistory() });
    const c1 = report.contentTypes[0]?.criteria[0];
    expect(c1?.criterionId).toBe("c1");
    expect(c1?.figures.kappa.value).toBeCloseTo(0.7, 12);
  });

  it("refuses a bound that is no date, naming it", async () => {
    const attempt = calibrationReport({ labels: [], since: "last tuesday" });
    await expect(attempt).rejects.toSatisfy((error) => isEvalgateError(error, "INVALID_INPUT"));
    await expect(attempt).rejects.toThrow(/since: "last tuesday" is not a date/);
    await expect(
      calibrationReport({ labels: [], since: "2026-11-02", until: "2026-11-01" }),
    ).rejects.toThrow(/until: .* is not after since/);
  });

  it("refuses a label that is not a label, saying which field", async () => {
    const [first] = labelHistory();
    const broken = {
      ...first,
      judgeScore: 7,
    } as unknown as typeof labelHistory extends () => (infer L)[] ? L : never;
    await expect(calibrationReport({ labels: [broken] })).rejects.toThrow(
      /labels:[\s\S]*judgeScore/,
    );
  });
});
