/**
 * `calibrate --compare`: the labelled evaluations of a period judged again, once without and once
 * with reviewer corrections as few-shot examples, and the judge's agreement with the reviewers
 * reported for both. Time split (scoring/calibration/timeSplit.ts): each evaluation is shown only
 * corrections decided strictly before its own decision, so no arm learns from the answer it is
 * scored against.
 */
import { type Catalog, isLlmMethod } from "../criteria/model.js";
import { evaluateContent } from "../engine/evaluateContent.js";
import type { ExampleSource } from "../judge/exampleSource.js";
import type { JudgeModel, ModelSource } from "../llm/chatModel.js";
import { buildCalibrationReport } from "../scoring/calibration/buildReport.js";
import type {
  CalibrationComparison,
  CriterionComparison,
  ReplayedLabel,
} from "../scoring/calibration/comparison.js";
import type { CalibrationReport } from "../scoring/calibration/reportSchema.js";
import { byDecision } from "../scoring/calibration/timeSplit.js";
import { type CalibrationLabel, withAcceptedScore } from "../scoring/calibrationLabel.js";
import type { EvaluationResult } from "../scoring/result.js";

export {
  type CalibrationComparison,
  CalibrationComparisonSchema,
  type ReplayedLabel,
  ReplayedLabelSchema,
} from "../scoring/calibration/comparison.js";

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

/**
 * The label as the replayed judge answered it: only the judge's side changes. The reviewer's side
 * — the score they gave, or the one they accepted when they decided — stays as it was decided, so
 * the replayed judge is measured against the reviewer, never against itself.
 */
function relabelled(label: CalibrationLabel, result: EvaluationResult): CalibrationLabel {
  const criterion = result.criteria.find((c) => c.id === label.criterionId);
  return {
    ...label,
    judgeScore: criterion?.score ?? null,
    judgeMet: criterion?.met ?? null,
    judgeNative: criterion?.native ?? null,
  };
}

/** Each criterion's figures without and with examples (both reports hold the same labels). */
function criteriaSideBySide(
  without: CalibrationReport,
  shown: CalibrationReport,
): CriterionComparison[] {
  const shownFigures = new Map(
    shown.contentTypes.flatMap((group) =>
      group.criteria.map((c) => [`${c.contentType}\u0000${c.criterionId}`, c.figures] as const),
    ),
  );
  return without.contentTypes.flatMap((group) =>
    group.criteria.flatMap((c) => {
      const figures = shownFigures.get(`${c.contentType}\u0000${c.criterionId}`);
      if (figures === undefined) return [];
      const { contentType, criterionId, title } = c;
      return [{ contentType, criterionId, title, without: c.figures, with: figures }];
    }),
  );
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
  // The reviewer's side of every label as decided, before any judge side is replaced.
  for (const group of byDecision(options.labels.map(withAcceptedScore))) {
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
  const plainReport = buildCalibrationReport(without);
  const shownReport = buildCalibrationReport(withExamples);
  return {
    labels: options.labels.length,
    replayed: replays.length,
    skipped,
    without: plainReport.overall,
    with: shownReport.overall,
    criteria: criteriaSideBySide(plainReport, shownReport),
    replays,
  };
}
