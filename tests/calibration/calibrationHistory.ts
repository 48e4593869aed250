/**
 * A reviewer-label history with agreement known by construction, shared by the report,
 * renderer and command tests. Every figure it yields is computed by hand in
 * tests/calibration/calibrationReport.test.ts.
 */
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";

export function label(
  overrides: Partial<CalibrationLabel> & { decisionId: string },
): CalibrationLabel {
  const made: CalibrationLabel = {
    threadId: `thread-${overrides.decisionId}`,
    stage: "budget",
    contentType: "budget",
    evaluationId: `evaluation-${overrides.decisionId}`,
    reviewer: "ana",
    decidedAt: "2026-11-01T10:00:00.000Z",
    action: "approve",
    judgePassed: true,
    criterionId: "c1",
    criterionTitle: "Costs are justified",
    method: "score",
    threshold: 0.7,
    judgeScore: 0.8,
    judgeMet: true,
    source: "accepted",
    ...overrides,
  };
  // As a decision keeps it: an accepted label's reviewer score is the judge's score then.
  if (made.source === "accepted" && made.judgeScore !== null && made.reviewerScore === undefined) {
    made.reviewerScore = made.judgeScore;
  }
  return made;
}

/** The gate outcome and reviewer action of budget decision number `i` (1-based, 21 in all). */
function budgetGate(i: number): Pick<CalibrationLabel, "judgePassed" | "action"> {
  if (i <= 6) return { judgePassed: true, action: "approve" };
  if (i <= 8) return { judgePassed: true, action: "revise" };
  if (i <= 9) return { judgePassed: false, action: "approve" };
  return { judgePassed: false, action: i <= 15 ? "revise" : "edit" };
}

/** The judge's and reviewer's view of criterion c1 in budget decision number `i`. */
function c1View(i: number): Partial<CalibrationLabel> {
  const accepted = (score: number) => ({ judgeScore: score, judgeMet: score >= 0.7 });
  const marked = (judge: number, reviewer: number) => ({
    judgeScore: judge,
    judgeMet: judge >= 0.7,
    source: "marked" as const,
    reviewerScore: reviewer,
  });
  const views: Partial<CalibrationLabel>[] = [
    ...Array.from({ length: 7 }, () => accepted(0.8)),
    marked(0.8, 0.9), // both pass
    marked(0.4, 0.2), // both fail
    marked(0.9, 0.5), // judge passes, reviewer fails
    marked(0.8, 0.6), // judge passes, reviewer fails
    marked(0.6, 0.8), // judge fails, reviewer passes
    ...Array.from({ length: 8 }, () => accepted(0.4)),
    { judgeScore: null, judgeMet: null }, // the judge could not answer
  ];
  return views[i - 1] ?? {};
}

/**
 * Budget: 21 decisions d1…d21 with a c1 label each (d1 also has a c2 label the reviewer marked
 * down); summary: 2 approved decisions s1, s2 with a c3 label each, both accepted at 0.8.
 */
export function labelHistory(): CalibrationLabel[] {
  const labels: CalibrationLabel[] = [];
  for (let i = 1; i <= 21; i += 1) {
    const day = String(i).padStart(2, "0");
    labels.push(
      label({
        decisionId: `d${i}`,
        decidedAt: `2026-10-${day}T09:00:00.000Z`,
        ...budgetGate(i),
        ...c1View(i),
      }),
    );
  }
  labels.push(
    label({
      decisionId: "d1",
      decidedAt: "2026-10-01T09:00:00.000Z",
      criterionId: "c2",
      criterionTitle: "Budget <script>alert(1)</script> & totals",
      judgeScore: 0.8,
      judgeMet: true,
      source: "marked",
      reviewerScore: 0.3,
      reviewerNote: "the totals do not add up",
    }),
  );
  for (const id of ["s1", "s2"]) {
    labels.push(
      label({
        decisionId: id,
        decidedAt: "2026-10-22T09:00:00.000Z",
        contentType: "summary",
        stage: "summary",
        criterionId: "c3",
        criterionTitle: "States the goal",
      }),
    );
  }
  return labels;
}
