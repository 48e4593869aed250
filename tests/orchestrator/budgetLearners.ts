/**
 * Twelve labelled budget evaluations and two judges that learn from reviewer corrections, one
 * well and one harmfully, shared by the library and the command tests of `calibrate --compare`.
 *
 * The history: evaluations b1…b12, decided an hour apart in that order, one criterion each
 * (`costs_justified`, threshold 0.5). The judge scored every one 0.65 (a pass). The odd ones list
 * their travel costs with no breakdown: the reviewer corrected the score to 0.3 (a fail). The even
 * ones itemise their costs: the reviewer approved them as they stood (accepted at 0.65, a pass).
 * b1 is a correction, so b1 is replayed with no example and every later evaluation with at
 * least one (the time split shows only corrections decided before).
 *
 * - The good learner scores content with no breakdown 0.3 once it has seen a correction, and
 *   anything else 0.65.
 * - The harmful learner copies the examples: once it has seen one it scores everything 0.3.
 *
 * Both answer 0.65 without examples.
 */
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";

export const LEARNER_CRITERION = "costs_justified";

export const LEARNER_CATALOG = {
  id: "budget_costs",
  name: "Budget costs",
  version: "1.0.0",
  passingThreshold: 0.5,
  criteria: [
    {
      id: LEARNER_CRITERION,
      title: "Costs are justified",
      description: "Is every cost item justified with a breakdown?",
      weight: 1,
      method: { kind: "score", scale: { min: 0, max: 1 } },
    },
  ],
};

export interface LearnerCase {
  n: number;
  /** The reviewer corrected the judge's 0.65 to 0.3; otherwise they approved it as it stood. */
  corrected: boolean;
  decidedAt: string;
  content: string;
}

export function learnerCases(): LearnerCase[] {
  return Array.from({ length: 12 }, (_, i) => {
    const n = i + 1;
    const corrected = n % 2 === 1;
    return {
      n,
      corrected,
      decidedAt: `2026-09-01T${String(8 + n).padStart(2, "0")}:00:00.000Z`,
      content: corrected
        ? `Budget ${n}: travel ${n * 10},000 EUR in one line, no breakdown.`
        : `Budget ${n}: travel of ${n} trips at 1,000 EUR each, itemised per trip.`,
    };
  });
}

/** The label a decision on case `c` left (as a decision writes it: the accepted score kept). */
export function learnerLabel(c: LearnerCase): CalibrationLabel {
  return {
    decisionId: `b${c.n}`,
    threadId: `budget-${c.n}`,
    stage: "budget",
    contentType: "budget",
    evaluationId: `ev-b${c.n}`,
    reviewer: "ana",
    decidedAt: c.decidedAt,
    action: c.corrected ? "revise" : "approve",
    ...(c.corrected ? { feedback: "break the travel costs down" } : {}),
    judgePassed: true,
    criterionId: LEARNER_CRITERION,
    criterionTitle: "Costs are justified",
    method: "score",
    threshold: 0.5,
    judgeScore: 0.65,
    judgeMet: true,
    judgeNative: 0.65,
    source: c.corrected ? "marked" : "accepted",
    reviewerScore: c.corrected ? 0.3 : 0.65,
    reviewerNative: c.corrected ? 0.3 : 0.65,
    ...(c.corrected ? { reviewerNote: "no breakdown of the travel costs" } : {}),
  };
}

const CONTENT_BLOCK = /<<<CONTENT id=\w+>>>\n([\s\S]*?)\n<<<END CONTENT id=\w+>>>/;

function answer(score: number): string {
  return JSON.stringify({ reasoning: `Scored ${score}.`, score, hits: [], misses: [] });
}

/** The good learner's answer to a judge prompt (the user message). */
export function goodLearner(prompt: string): string {
  const shown = prompt.includes("<<<EXAMPLE id=");
  const judged = CONTENT_BLOCK.exec(prompt)?.[1] ?? "";
  return answer(shown && judged.includes("no breakdown") ? 0.3 : 0.65);
}

/** The harmful learner's answer: any example shown, and it copies the correction's 0.3. */
export function harmfulLearner(prompt: string): string {
  return answer(prompt.includes("<<<EXAMPLE id=") ? 0.3 : 0.65);
}
