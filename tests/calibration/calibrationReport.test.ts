import { describe, expect, it } from "vitest";
import { buildCalibrationReport } from "../../src/calibration/report.js";
import { CalibrationReportSchema } from "../../src/calibration/reportModel.js";
import { label, labelHistory } from "./calibrationHistory.js";

function report() {
  return buildCalibrationReport(labelHistory(), { generatedAt: "2026-11-02T00:00:00.000Z" });
}

function criterion(contentType: string, criterionId: string) {
  const found = report()
    .contentTypes.find((group) => group.contentType === contentType)
    ?.criteria.find((entry) => entry.criterionId === criterionId);
  if (found === undefined) throw new Error(`no ${contentType}/${criterionId} in the report`);
  return found;
}

describe("calibration report over a history with known agreement", () => {
  it("is a valid report, grouped by content type and criterion", () => {
    const built = report();
    expect(CalibrationReportSchema.parse(built)).toEqual(built);
    expect(built.contentTypes.map((group) => group.contentType)).toEqual(["budget", "summary"]);
    expect(built.contentTypes[0]?.criteria.map((entry) => entry.criterionId)).toEqual(["c1", "c2"]);
    expect(built.window).toMatchObject({
      firstDecision: "2026-10-01T09:00:00.000Z",
      lastDecision: "2026-10-22T09:00:00.000Z",
    });
  });

  it("counts c1's labels and its judge error apart", () => {
    // 7 + 8 accepted with a score, 1 accepted without (the judge error), 5 marked.
    expect(criterion("budget", "c1").figures.counts).toEqual({
      labels: 21,
      marked: 5,
      accepted: 16,
      judgeErrors: 1,
      compared: 20,
    });
  });

  it("gives c1 the κ of an 8/2/1/9 table: 0.70", () => {
    // bothPass: 7 accepted at 0.8 + marked 0.8→0.9 = 8; judge-only: 0.9→0.5, 0.8→0.6 = 2;
    // reviewer-only: 0.6→0.8 = 1; bothFail: 8 accepted at 0.4 + marked 0.4→0.2 = 9.
    // n = 20, po = 17/20 = 0.85, pJ = 10/20 = 0.5, pR = 9/20 = 0.45,
    // pe = 0.5·0.45 + 0.5·0.55 = 0.5, κ = (0.85 − 0.5)/(1 − 0.5) = 0.70
    const { figures } = criterion("budget", "c1");
    expect(figures.table).toEqual({
      bothPass: 8,
      judgeOnlyPass: 2,
      reviewerOnlyPass: 1,
      bothFail: 9,
    });
    expect(figures.agreement.value).toBeCloseTo(0.85, 12);
    expect(figures.kappa.value).toBeCloseTo(0.7, 12);
    expect(figures.disagreements).toEqual({
      count: 3,
      rate: 0.15,
      judgeTooLenient: 2,
      judgeTooStrict: 1,
    });
  });

  it("gives c1's marked scores ρ = 2/√95", () => {
    // judge    0.8 0.4 0.9 0.8 0.6 → ranks 3.5 1 5 3.5 2  (deviations from 3: .5 −2 2 .5 −1)
    // reviewer 0.9 0.2 0.5 0.6 0.8 → ranks 5 1 2 3 4      (deviations from 3: 2 −2 −1 0 1)
    // Σdx·dy = 1 + 4 − 2 + 0 − 1 = 2; Σdx² = 9.5; Σdy² = 10; ρ = 2/√95 ≈ 0.2052
    const { figures, markedScores } = criterion("budget", "c1");
    expect(markedScores).toHaveLength(5);
    expect(figures.spearmanMarked.value).toBeCloseTo(2 / Math.sqrt(95), 12);
  });

  it("finds 0.60 as c1's best threshold: 18 of 20 against 17 at 0.70", () => {
    // Reviewer passes: eight at 0.8 and one at 0.6; fails: nine at 0.4, one 0.8, one 0.9.
    // t ≤ 0.4: 9 agree; (0.4, 0.6]: 9 fails + 0.6 + eight 0.8 = 18; (0.6, 0.8]: 17;
    // (0.8, 0.9]: nine 0.4 + the failed 0.8 = 10; above 0.9: 11. Best band (0.4, 0.6]:
    // nearest the current 0.7 is 0.60.
    const { sweep, threshold } = criterion("budget", "c1");
    expect(threshold).toBe(0.7);
    expect(sweep?.current).toEqual({ threshold: 0.7, agreed: 17, agreement: 0.85 });
    expect(sweep?.best).toEqual({ threshold: 0.6, agreed: 18, agreement: 0.9 });
    expect(sweep?.curve[40]).toEqual({ threshold: 0.4, agreed: 9, agreement: 0.45 });
    expect(sweep?.curve[85]).toEqual({ threshold: 0.85, agreed: 10, agreement: 0.5 });
    expect(sweep?.curve[95]).toEqual({ threshold: 0.95, agreed: 11, agreement: 0.55 });
  });

  it("reports not enough labels where there are too few or they do not vary", () => {
    const c2 = criterion("budget", "c2");
    expect(c2.figures.kappa).toEqual({ value: null, missing: "too-few-labels" });
    expect(c2.figures.spearmanMarked).toEqual({ value: null, missing: "too-few-labels" });
    expect(c2.sweep).toBeNull();
    // Both c3 labels pass on both sides with the same score: κ and ρ are 0/0.
    const c3 = criterion("summary", "c3");
    expect(c3.figures.kappa).toEqual({ value: null, missing: "no-variance" });
    expect(c3.figures.spearmanAll).toEqual({ value: null, missing: "no-variance" });
    expect(c3.figures.spearmanMarked).toEqual({ value: null, missing: "too-few-labels" });
  });

  it("computes gate κ per decision, revise and edit counting as not passed", () => {
    // d21's judge could not answer its one criterion: its gate "fail" is a judge error, in no gate
    // figure (counted as bothFail against the edit, it would flatter κ: 20/29 = 0.690).
    // budget: judge passed & approve 6; passed & revise 2; failed & approve 1; failed & revise
    // or edit 11 (d10…d20). n = 20, po = 17/20, pJ = 8/20, pR = 7/20,
    // pe = (8·7 + 12·13)/400 = 212/400, κ = (340 − 212)/(400 − 212) = 128/188 = 32/47 = 0.681
    const budget = report().contentTypes[0]?.gate;
    expect(budget).toMatchObject({ decisions: 21, judgeErrors: 1, approve: 7, revise: 8, edit: 6 });
    expect(budget?.table).toEqual({
      bothPass: 6,
      judgeOnlyPass: 2,
      reviewerOnlyPass: 1,
      bothFail: 11,
    });
    expect(budget?.kappa.value).toBeCloseTo(32 / 47, 12);
    // Overall: s1, s2 add two passed & approved: 8/2/1/11, n = 22, po = 19/22, pJ = 10/22,
    // pR = 9/22, pe = (90 + 156)/484 = 246/484, κ = (418 − 246)/(484 − 246) = 172/238 = 86/119
    expect(report().gate.kappa.value).toBeCloseTo(86 / 119, 12);
    expect(report().gate.judgeErrors).toBe(1);
    // summary alone: everything passed and approved, κ undefined.
    expect(report().contentTypes[1]?.gate.kappa).toEqual({ value: null, missing: "no-variance" });
  });

  it("keeps a gate that failed for want of an answer out of the gate figures", () => {
    // g1: c1 not answered, c2 passed, gate failed, revised: the fail is the error's (excluded).
    // g2: c1 not answered, c2 failed, gate failed, revised: a fail the judge gave (both fail).
    // g3: both answered and passed, gate passed, approved (both pass).
    // g4: c1 not answered, c2 passed, gate passed, revised (judge only pass).
    // Pairs g2, g3, g4: table 1/1/0/1, n = 3, po = 2/3, pJ = 2/3, pR = 1/3,
    // pe = 2/9 + 2/9 = 4/9, κ = (6/9 − 4/9)/(1 − 4/9) = (2/9)/(5/9) = 0.4.
    // Counted as a judge fail, g1 would add a both-fail: 1/1/0/2, po = 3/4, κ = 0.5.
    const gate = (id: string, passed: boolean, action: "approve" | "revise", c2: number) => [
      label({ decisionId: id, judgePassed: passed, action, judgeScore: null, judgeMet: null }),
      label({
        decisionId: id,
        judgePassed: passed,
        action,
        criterionId: "c2",
        judgeScore: c2,
        judgeMet: c2 >= 0.7,
      }),
    ];
    const labels = [
      ...gate("g1", false, "revise", 0.8),
      ...gate("g2", false, "revise", 0.2),
      ...gate("g3", true, "approve", 0.8).map((l) => ({ ...l, judgeScore: 0.8, judgeMet: true })),
      ...gate("g4", true, "revise", 0.8),
    ];
    const { gate: figures } = buildCalibrationReport(labels);
    expect(figures).toMatchObject({ decisions: 4, judgeErrors: 1 });
    expect(figures.table).toEqual({
      bothPass: 1,
      judgeOnlyPass: 1,
      reviewerOnlyPass: 0,
      bothFail: 1,
    });
    expect(figures.kappa.value).toBeCloseTo(0.4, 12);
  });

  it("pools every label overall", () => {
    // c1 8/2/1/9 + c2 judge pass, reviewer fail + c3 two both-pass = 10/3/1/9, n = 23:
    // po = 19/23, pJ = 13/23, pR = 11/23, pe = (143 + 120)/529 = 263/529,
    // κ = (437 − 263)/(529 − 263) = 174/266 = 87/133
    const { overall } = report();
    expect(overall.counts).toEqual({
      labels: 24,
      marked: 6,
      accepted: 18,
      judgeErrors: 1,
      compared: 23,
    });
    expect(overall.kappa.value).toBeCloseTo(87 / 133, 12);
  });

  it("ranks the criteria whose judge disagrees most", () => {
    // c2: 1 of 1 (rate 1); c1: 3 of 20 (0.15); c3 never disagrees and is not listed.
    expect(report().disagreements).toEqual([
      {
        contentType: "budget",
        criterionId: "c2",
        title: "Budget <script>alert(1)</script> & totals",
        disagreed: 1,
        compared: 1,
        rate: 1,
        judgeTooLenient: 1,
        judgeTooStrict: 0,
      },
      {
        contentType: "budget",
        criterionId: "c1",
        title: "Costs are justified",
        disagreed: 3,
        compared: 20,
        rate: 0.15,
        judgeTooLenient: 2,
        judgeTooStrict: 1,
      },
    ]);
  });

  it("does not depend on the order of the labels", () => {
    const reversed = buildCalibrationReport(labelHistory().reverse(), {
      generatedAt: "2026-11-02T00:00:00.000Z",
    });
    expect(reversed).toEqual(report());
  });

  it("is empty, not broken, without labels", () => {
    const empty = buildCalibrationReport([], { generatedAt: "2026-11-02T00:00:00.000Z" });
    expect(empty.contentTypes).toEqual([]);
    expect(empty.overall.kappa).toEqual({ value: null, missing: "too-few-labels" });
    expect(empty.gate.decisions).toBe(0);
    expect(empty.window.firstDecision).toBeNull();
  });
});
