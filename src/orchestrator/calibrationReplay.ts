/**
 * `calibrate --compare`: the labelled evaluations of a period judged again, once without and once
 * with reviewer corrections as few-shot examples, and the judge's agreement with the reviewers
 * reported for both. Time split: each evaluation is shown only corrections decided strictly
 * before its own decision, so no arm learns from the answer it is scored against.
 */
import { z } from "zod";
import { type Catalog, isLlmMethod } from "../criteria/model.js";
import { evaluateContent } from "../engine/evaluateContent.js";
import type { ExampleSource } from "../judge/exampleSource.js";
import type { JudgeModel, ModelSource } from "../llm/chatModel.js";
import { buildCalibrationReport } from "../scoring/calibration/buildReport.js";
import { GroupFiguresSchema } from "../scoring/calibration/criterionCalibration.js";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import type { EvaluationResult } from "../scoring/result.js";

export const ReplayedLabelSchema = z.object({
  labelId: z.string(),
  contentType: z.string(),
  criterionId: z.string(),
  decidedAt: z.string(),
  /** The replayed judge's 0–1 score without and with examples (null: not evaluated). */
  scoreWithout: z.number().nullable(),
  scoreWith: z.number().nullable(),
  /** The corrections shown as examples, with the time each was decided. */
  examples: z.array(z.object({ labelId: z.string(), decidedAt: z.string() })),
});
export type ReplayedLabel = z.infer<typeof ReplayedLabelSchema>;

export const CalibrationComparisonSchema = z.object({
  /** Labels in the period. */
  labels: z.number().int().min(0),
  /** Labels judged again in both arms. */
  replayed: z.number().int().min(0),
  skipped: z.object({
    /** The evaluation's content was not kept (no traces in the store). */
    noContent: z.number().int().min(0),
    /** The criterion is not in the catalog, or not judged by the model. */
    notInCatalog: z.number().int().min(0),
  }),
  without: GroupFiguresSchema,
  with: GroupFiguresSchema,
  replays: z.array(ReplayedLabelSchema),
});
export type CalibrationComparison = z.infer<typeof CalibrationComparisonSchema>;

export interface ReplayOptions {
  /** The labels of the period (any order). */
  labels: readonly CalibrationLabel[];
  /** The catalog the labels' criteria are looked up in, by id. */
  catalog: Catalog;
  /** The content an evaluation judged (undefined: not kept). */
  contentOf(label: CalibrationLabel): Promise<string | undefined>;
  /** Every correction (the time split is applied per evaluation). */
  examples: ExampleSource;
  model: ModelSource | JudgeModel;
  maxExamples?: number;
  tokenBudget?: number;
}

/** An example source that notes the decision time of every example it hands out. */
function noting(source: ExampleSource, seen: Map<string, string>): ExampleSource {
  return {
    async examples(query) {
      const found = await source.examples(query);
      for (const example of found) seen.set(example.labelId, example.decidedAt);
      return found;
    },
  };
}

/** The label as the replayed judge answered it. */
function relabelled(label: CalibrationLabel, result: EvaluationResult): CalibrationLabel {
  const criterion = result.criteria.find((c) => c.id === label.criterionId);
  return {
    ...label,
    judgeScore: criterion?.score ?? null,
    judgeMet: criterion?.met ?? null,
    judgeNative: criterion?.native ?? null,
  };
}

/** The labels of one evaluation (one decision): they share the content and the decision time. */
function byEvaluation(labels: readonly CalibrationLabel[]): CalibrationLabel[][] {
  const groups = new Map<string, CalibrationLabel[]>();
  for (const label of labels) {
    const key = `${label.decisionId}\u0000${label.evaluationId}`;
    groups.set(key, [...(groups.get(key) ?? []), label]);
  }
  return [...groups.values()].sort((a, b) => (a[0]!.decidedAt < b[0]!.decidedAt ? -1 : 1));
}

/**
 * Replays the labelled evaluations without and with few-shot examples and compares the judge's
 * agreement with the reviewers (κ, Spearman, agreement) in both arms, on the same labels.
 */
export async function compareFewShot(options: ReplayOptions): Promise<CalibrationComparison> {
  const seen = new Map<string, string>();
  const source = noting(options.examples, seen);
  const without: CalibrationLabel[] = [];
  const withExamples: CalibrationLabel[] = [];
  const replays: ReplayedLabel[] = [];
  const skipped = { noContent: 0, notInCatalog: 0 };
  for (const group of byEvaluation(options.labels)) {
    const first = group[0]!;
    const judged = group.filter((label) => {
      const criterion = options.catalog.criteria.find((c) => c.id === label.criterionId);
      return criterion !== undefined && isLlmMethod(criterion.method);
    });
    skipped.notInCatalog += group.length - judged.length;
    if (judged.length === 0) continue;
    const content = await options.contentOf(first);
    if (content === undefined) {
      skipped.noContent += judged.length;
      continue;
    }
    const ids = new Set(judged.map((l) => l.criterionId));
    const catalog = {
      ...options.catalog,
      criteria: options.catalog.criteria.filter((c) => ids.has(c.id)),
    };
    const common = {
      content,
      catalog,
      contentType: first.contentType,
      model: options.model,
      mode: "per-criterion" as const,
      injectionGuard: false,
    };
    const plain = await evaluateContent(common);
    const shown = await evaluateContent({
      ...common,
      fewShot: {
        source,
        enabled: true,
        before: first.decidedAt,
        ...(options.maxExamples === undefined ? {} : { maxExamples: options.maxExamples }),
        ...(options.tokenBudget === undefined ? {} : { tokenBudget: options.tokenBudget }),
      },
    });
    for (const label of judged) {
      const a = relabelled(label, plain);
      const b = relabelled(label, shown);
      without.push(a);
      withExamples.push(b);
      const used = shown.fewShotExamples?.[label.criterionId] ?? [];
      replays.push({
        labelId: `${label.decisionId}#${label.criterionId}`,
        contentType: label.contentType,
        criterionId: label.criterionId,
        decidedAt: label.decidedAt,
        scoreWithout: a.judgeScore,
        scoreWith: b.judgeScore,
        examples: used.map((labelId) => ({ labelId, decidedAt: seen.get(labelId) ?? "" })),
      });
    }
  }
  return {
    labels: options.labels.length,
    replayed: replays.length,
    skipped,
    without: buildCalibrationReport(without).overall,
    with: buildCalibrationReport(withExamples).overall,
    replays,
  };
}
