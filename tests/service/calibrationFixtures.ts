/**
 * Calibration labels and a recorded few-shot comparison for the calibration page's tests: four
 * corrections of one budget criterion whose figures the tests work out by hand, and the comparison
 * `calibrate --compare` would record for them with a scripted judge.
 */

import { compareFewShot } from "../../src/calibration/fewShot.js";
import { CatalogSchema } from "../../src/criteria/model.js";
import { inMemoryExampleSource } from "../../src/judge/exampleSource.js";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import { ScriptedChatModel } from "../doubles/index.js";

export const TITLE = '<b>Costs</b> & "itemised"';

export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/**
 * Four corrections of one criterion (threshold 0.5): the judge said 0.9 each time; the reviewers
 * said 0.2, 0.9, 0.9, 0.2.
 */
export const LABELS: CalibrationLabel[] = [0.2, 0.9, 0.9, 0.2].map((reviewerScore, i) => ({
  decisionId: `cal-d${i + 1}`,
  threadId: `cal-t${i + 1}`,
  stage: "budget",
  contentType: "budget",
  evaluationId: `cal-ev${i + 1}`,
  reviewer: "root",
  // Recent, oldest first: the page reads the labels of its window (the last 90 days by default).
  decidedAt: daysAgo(10 - i),
  action: "approve",
  judgePassed: true,
  criterionId: "costs_itemised",
  criterionTitle: TITLE,
  method: "score",
  threshold: 0.5,
  judgeScore: 0.9,
  judgeMet: true,
  judgeNative: 0.9,
  source: "marked",
  reviewerScore,
  reviewerNative: reviewerScore,
}));

export const CATALOG = CatalogSchema.parse({
  id: "budget_plan",
  name: "Budget plan",
  version: "4",
  criteria: [
    {
      id: "costs_itemised",
      title: TITLE,
      description: "Is every cost line itemised with a unit price?",
      weight: 1,
      method: { kind: "score", scale: { min: 0, max: 1 } },
    },
  ],
});

/** A judge that answers 0.8 when its prompt carries an example, 0.3 otherwise. */
const judge = () =>
  new ScriptedChatModel({
    responder: (messages) => {
      const score = (messages.at(-1)?.content ?? "").includes("<<<EXAMPLE id=") ? 0.8 : 0.3;
      return JSON.stringify({ reasoning: `Scored ${score}.`, score, hits: [], misses: [] });
    },
  });

/** Records, in `store`, the comparison of LABELS without and with examples. */
export async function recordComparison(store: ReviewStore) {
  const examples = inMemoryExampleSource(
    LABELS.map((label) => ({
      labelId: `${label.decisionId}#${label.criterionId}`,
      criterionId: label.criterionId,
      contentType: label.contentType,
      decidedAt: label.decidedAt,
      excerpt: `Travel for ${label.decisionId}: a lump sum.`,
      judgeValue: 0.9,
      correctedValue: label.reviewerScore ?? 0,
    })),
  );
  const comparison = await compareFewShot({
    labels: LABELS,
    catalog: CATALOG,
    model: judge(),
    examples,
    contentOf: async (label) => `Travel for ${label.decisionId}: a lump sum.`,
  });
  const { replays: _perLabel, ...figures } = comparison;
  return store.recordCalibrationMeasurement({
    measuredAt: "2026-05-10T12:00:00.000Z",
    since: "2026-05-01T00:00:00.000Z",
    until: null,
    contentType: "budget",
    model: "ollama:judge-under-test",
    catalog: { id: CATALOG.id, version: CATALOG.version },
    comparison: figures,
  });
}
