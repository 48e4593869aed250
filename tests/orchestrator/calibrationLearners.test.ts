/**
 * compareFewShot measures the replayed judge against what the reviewers decided, never against
 * itself: on twelve budget evaluations (six corrected from 0.65 to 0.3, six approved as they
 * stood; tests/orchestrator/budgetLearners.ts), a judge that learns well gains agreement and κ,
 * and a judge that copies every example — failing the six approved budgets — shows a drop. Every
 * figure is worked out by hand below.
 */
import { describe, expect, it } from "vitest";
import { compareFewShot } from "../../src/calibration/fewShot.js";
import { CatalogSchema } from "../../src/criteria/model.js";
import { exampleOfLabel, inMemoryExampleSource } from "../../src/judge/exampleSource.js";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import { replayedText } from "../../src/service/pages/calibrationText.js";
import { ScriptedChatModel } from "../doubles/index.js";
import {
  goodLearner,
  harmfulLearner,
  LEARNER_CATALOG,
  learnerCases,
  learnerLabel,
} from "./budgetLearners.js";

const cases = learnerCases();
const labels = cases.map(learnerLabel);
const contentById = new Map(cases.map((c) => [`ev-b${c.n}`, c.content]));

function compare(learner: (prompt: string) => string, given: readonly CalibrationLabel[]) {
  const model = new ScriptedChatModel({
    responder: (messages) =>
      learner(messages.filter((m) => m.role === "user").at(-1)?.content ?? ""),
  });
  const examples = labels.flatMap((label) => {
    const example = exampleOfLabel(label, contentById.get(label.evaluationId) ?? "");
    return example === undefined ? [] : [example];
  });
  return compareFewShot({
    labels: given,
    catalog: CatalogSchema.parse(LEARNER_CATALOG),
    contentOf: async (label) => contentById.get(label.evaluationId),
    examples: inMemoryExampleSource(examples),
    model,
  });
}

// Without examples both learners answer 0.65 everywhere: the judge passes all twelve; the
// reviewers pass the six approved (0.65 ≥ 0.5) and fail the six corrected (0.3 < 0.5).
// Table: both pass 6, judge only 6, reviewer only 0, neither 0.
// po = 6/12 = 0.5; pJ = 12/12 = 1, pR = 6/12; pe = 1·0.5 + 0·0.5 = 0.5; κ = (0.5 − 0.5)/(1 − 0.5) = 0.
const WITHOUT = { agreement: 0.5, kappa: 0, table: [6, 6, 0, 0] };

function tableOf(figures: { table: Record<string, number> }) {
  const t = figures.table;
  return [t.bothPass, t.judgeOnlyPass, t.reviewerOnlyPass, t.bothFail];
}

describe("compareFewShot with a good and a harmful learner", () => {
  it("shows the good learner's gain: 50% → 91.7%, κ 0 → 0.833", async () => {
    const comparison = await compare(goodLearner, labels);
    expect(comparison.replayed).toBe(12);
    expect(comparison.without.agreement.value).toBe(WITHOUT.agreement);
    expect(comparison.without.kappa.value).toBeCloseTo(WITHOUT.kappa, 12);
    expect(tableOf(comparison.without)).toEqual(WITHOUT.table);
    // With examples: b1 (corrected, no example before it) stays 0.65 — the judge passes, the
    // reviewer failed; every later corrected budget gets 0.3 (agree, 5), every approved one 0.65
    // (agree, 6). Table: both pass 6, judge only 1, reviewer only 0, neither 5.
    // po = 11/12 = 0.9167; pJ = 7/12, pR = 6/12; pe = 7/12·6/12 + 5/12·6/12 = 72/144 = 0.5;
    // κ = (11/12 − 1/2)/(1 − 1/2) = (5/12)/(1/2) = 5/6 = 0.8333.
    expect(tableOf(comparison.with)).toEqual([6, 1, 0, 5]);
    expect(comparison.with.agreement.value).toBeCloseTo(11 / 12, 12);
    expect(comparison.with.kappa.value).toBeCloseTo(5 / 6, 12);
    expect(comparison.replays.map((r) => r.scoreWith)).toEqual(
      cases.map((c) => (c.corrected && c.n > 1 ? 0.3 : 0.65)),
    );
  });

  it("shows the harmful learner's drop: 50% → 41.7%, κ 0 → −0.167", async () => {
    const comparison = await compare(harmfulLearner, labels);
    expect(comparison.without.agreement.value).toBe(WITHOUT.agreement);
    expect(tableOf(comparison.without)).toEqual(WITHOUT.table);
    // With examples: b1 stays 0.65 (judge passes, reviewer failed); b2…b12 all get 0.3 — the
    // five corrected agree, the six approved (accepted at 0.65 by the reviewer) disagree.
    // Table: both pass 0, judge only 1, reviewer only 6, neither 5.
    // po = 5/12 = 0.4167; pJ = 1/12, pR = 6/12; pe = 1/12·6/12 + 11/12·6/12 = 72/144 = 0.5;
    // κ = (5/12 − 1/2)/(1 − 1/2) = (−1/12)/(1/2) = −1/6 = −0.1667.
    expect(comparison.replays.map((r) => r.scoreWith)).toEqual(
      cases.map((c) => (c.n === 1 ? 0.65 : 0.3)),
    );
    expect(tableOf(comparison.with)).toEqual([0, 1, 6, 5]);
    expect(comparison.with.agreement.value).toBeCloseTo(5 / 12, 12);
    expect(comparison.with.kappa.value).toBeCloseTo(-1 / 6, 12);
    expect(comparison.with.disagreements).toMatchObject({ judgeTooLenient: 1, judgeTooStrict: 6 });
    const [costs] = comparison.criteria;
    expect(costs?.with.agreement.value).toBeCloseTo(5 / 12, 12);
    expect(costs?.without.agreement.value).toBe(0.5);
  });

  it("keeps an accepted label's score as decided when a label is given without it", async () => {
    // An accepted label as a library user may hold it (no reviewer score): its judge side is
    // the one the reviewer accepted, so the figures are those above.
    const bare = labels.map((label) => {
      if (label.source !== "accepted") return label;
      const { reviewerScore: _score, reviewerNative: _native, ...rest } = label;
      return rest;
    });
    const comparison = await compare(harmfulLearner, bare);
    expect(tableOf(comparison.with)).toEqual([0, 1, 6, 5]);
    expect(comparison.with.agreement.value).toBeCloseTo(5 / 12, 12);
  });
});

/** With examples, it answers the budgets with no breakdown (0.3) and nothing readable otherwise. */
function evasiveLearner(prompt: string): string {
  if (!prompt.includes("<<<EXAMPLE id=")) return goodLearner(prompt);
  const judged = /<<<CONTENT id=\w+>>>\n([\s\S]*?)\n<<<END CONTENT/.exec(prompt)?.[1] ?? "";
  return judged.includes("no breakdown") ? goodLearner(prompt) : "I would rather not say.";
}

describe("compareFewShot when one arm cannot judge some labels", () => {
  it("compares both arms on the labels both judged, not the errors away", async () => {
    const comparison = await compare(evasiveLearner, labels);
    // With examples, the six approved budgets b2…b12 get no readable answer: judge errors.
    expect(comparison.replays.filter((r) => r.scoreWith === null)).toHaveLength(6);
    // Counted on its own compared labels, the arm with examples would be b1 (0.65, judge passes,
    // reviewer failed: disagree) and b3…b11 (0.3, agree 5): 5/6 = 83.3% against 6/12 = 50%, a
    // "gain" made of the six it could not answer. On the labels both arms judged (b1, b3, …, b11,
    // all corrected to 0.3):
    // without: all six at 0.65 pass, the reviewer fails all six: table 0, 6, 0, 0; po = 0/6 = 0.
    // with: b1 passes (disagree), b3…b11 fail (agree 5): table 0, 1, 0, 5; po = 5/6.
    // κ without: pJ = 6/6 = 1, pR = 0/6 = 0; pe = 1·0 + 0·1 = 0; κ = (0 − 0)/(1 − 0) = 0.
    expect(comparison.without.counts.compared).toBe(6);
    expect(comparison.with.counts.compared).toBe(6);
    expect(comparison.without.counts.judgeErrors).toBe(6);
    expect(comparison.with.counts.judgeErrors).toBe(6);
    expect(tableOf(comparison.without)).toEqual([0, 6, 0, 0]);
    expect(tableOf(comparison.with)).toEqual([0, 1, 0, 5]);
    expect(comparison.without.agreement.value).toBe(0);
    expect(comparison.with.agreement.value).toBeCloseTo(5 / 6, 12);
    expect(comparison.without.kappa.value).toBe(0);
    expect(replayedText(comparison)).toContain("6 judge errors in either arm");
  });
});
