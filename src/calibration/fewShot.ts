/**
 * Reviewer corrections as few-shot examples, and `calibrate --compare` (judged again without and
 * with them). Each evaluation sees only corrections decided strictly before its own decision.
 */
import { type Catalog, isLlmMethod } from "../criteria/model.js";
import { evaluateContent } from "../engine/evaluateContent.js";
import { type ExampleQuery, type ExampleSource, exampleOfLabel } from "../judge/exampleSource.js";
import type { FewShotExample } from "../judge/fewShot.js";
import { contentOfTraces } from "../judge/tracedContent.js";
import type { JudgeModel, ModelSource } from "../llm/chatModel.js";
import { type CalibrationLabel, withAcceptedScore } from "../scoring/calibrationLabel.js";
import type { EvaluationResult, Trace } from "../scoring/result.js";
import { buildCalibrationReport, byDecision } from "./report.js";
import type {
  CalibrationComparison,
  CalibrationReport,
  CriterionCalibration,
  ReplayedLabel,
} from "./reportModel.js";

interface CorrectionLabelReader {
  correctionLabels(query: ExampleQuery): Promise<CalibrationLabel[]>;
}

interface EvaluationTraceReader {
  getTraces(query: { evaluationId: string }): Promise<Trace[]>;
}

/** Evaluations whose traces one source keeps in memory (the most recently read). */
const TRACE_MEMORY = 256;

/**
 * An ExampleSource over the review store's labels, each correction's content read from its
 * evaluation's traces (one without traces in the store is no example).
 *
 * @example
 * const store = await openReviewStore({ sqlitePath });
 * const traces = new SqliteTraceStore(new Database(sqlitePath));
 * await evaluateContent({ content, catalog, fewShot: { source: storeExampleSource(store, traces) } });
 */
export function storeExampleSource(
  labels: CorrectionLabelReader,
  traces: EvaluationTraceReader,
): ExampleSource {
  const read = new Map<string, Promise<Trace[]>>();
  const tracesOf = (evaluationId: string): Promise<Trace[]> => {
    let found = read.get(evaluationId);
    if (found === undefined) {
      found = traces.getTraces({ evaluationId });
      read.set(evaluationId, found);
      if (read.size > TRACE_MEMORY) read.delete(read.keys().next().value as string);
    }
    return found;
  };
  return {
    async examples(query) {
      const corrections = await labels.correctionLabels(query);
      const examples = await Promise.all(
        corrections.map(async (label): Promise<FewShotExample | undefined> => {
          const content = contentOfTraces(await tracesOf(label.evaluationId), label.criterionId);
          return content === undefined ? undefined : exampleOfLabel(label, content);
        }),
      );
      return examples.filter((e): e is FewShotExample => e !== undefined);
    },
  };
}

interface ReplayOptions {
  labels: readonly CalibrationLabel[];
  catalog: Catalog;
  /** The content an evaluation judged (undefined: not kept). */
  contentOf(label: CalibrationLabel): Promise<string | undefined>;
  examples: ExampleSource;
  model: ModelSource | JudgeModel;
  maxExamples?: number;
  tokenBudget?: number;
}

/** Only the judge's side changes, so the replayed judge is measured against the reviewer, not itself. */
function relabelled(label: CalibrationLabel, result?: EvaluationResult): CalibrationLabel {
  const criterion = result?.criteria.find((c) => c.id === label.criterionId);
  return {
    ...label,
    judgeScore: criterion?.score ?? null,
    judgeMet: criterion?.met ?? null,
    judgeNative: criterion?.native ?? null,
  };
}

interface Replay {
  without: CalibrationLabel[];
  shown: CalibrationLabel[];
  replays: ReplayedLabel[];
  skipped: { noContent: number; notInCatalog: number };
  seen: Map<string, string>;
}

/** One decision's labels judged again in both arms (its model-judged criteria only). */
async function replayDecision(
  group: readonly CalibrationLabel[],
  options: ReplayOptions,
  source: ExampleSource,
  replay: Replay,
): Promise<void> {
  const { catalog, maxExamples, tokenBudget } = options;
  const first = group[0] as CalibrationLabel;
  const judged = group.filter((label) => {
    const criterion = catalog.criteria.find((c) => c.id === label.criterionId);
    return criterion !== undefined && isLlmMethod(criterion.method);
  });
  replay.skipped.notInCatalog += group.length - judged.length;
  if (judged.length === 0) return;
  const content = await options.contentOf(first);
  if (content === undefined) {
    replay.skipped.noContent += judged.length;
    return;
  }
  const ids = new Set(judged.map((l) => l.criterionId));
  const common = {
    content,
    catalog: { ...catalog, criteria: catalog.criteria.filter((c) => ids.has(c.id)) },
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
      maxExamples,
      tokenBudget,
    },
  });
  for (const label of judged) {
    const [a, b] = [relabelled(label, plain), relabelled(label, shown)];
    // A label either arm could not judge is a judge error in both: the arms compare the same labels.
    const bothJudged = a.judgeScore !== null && b.judgeScore !== null;
    replay.without.push(bothJudged ? a : relabelled(a));
    replay.shown.push(bothJudged ? b : relabelled(b));
    replay.replays.push({
      labelId: `${label.decisionId}#${label.criterionId}`,
      contentType: label.contentType,
      criterionId: label.criterionId,
      decidedAt: label.decidedAt,
      scoreWithout: a.judgeScore,
      scoreWith: b.judgeScore,
      examples: (shown.fewShotExamples?.[label.criterionId] ?? []).map((labelId) => ({
        labelId,
        decidedAt: replay.seen.get(labelId) ?? "",
      })),
    });
  }
}

function criteriaSideBySide(without: CalibrationReport, shown: CalibrationReport) {
  const key = (c: CriterionCalibration) => `${c.contentType}\u0000${c.criterionId}`;
  const shownFigures = new Map(
    shown.contentTypes.flatMap((g) => g.criteria.map((c) => [key(c), c.figures] as const)),
  );
  return without.contentTypes.flatMap((g) =>
    g.criteria.flatMap((c) => {
      const figures = shownFigures.get(key(c));
      if (figures === undefined) return [];
      const { contentType, criterionId, title } = c;
      return [{ contentType, criterionId, title, without: c.figures, with: figures }];
    }),
  );
}

/** Replays the labelled evaluations without and with examples, on the same labels. */
export async function compareFewShot(options: ReplayOptions): Promise<CalibrationComparison> {
  const replay: Replay = {
    without: [],
    shown: [],
    replays: [],
    skipped: { noContent: 0, notInCatalog: 0 },
    seen: new Map(),
  };
  const source: ExampleSource = {
    async examples(query) {
      const found = await options.examples.examples(query);
      for (const example of found) replay.seen.set(example.labelId, example.decidedAt);
      return found;
    },
  };
  // The reviewer's side of every label as decided, before any judge side is replaced.
  for (const group of byDecision(options.labels.map(withAcceptedScore))) {
    await replayDecision(group, options, source, replay);
  }
  const [without, shown] = [
    buildCalibrationReport(replay.without),
    buildCalibrationReport(replay.shown),
  ];
  return {
    labels: options.labels.length,
    replayed: replay.replays.length,
    skipped: replay.skipped,
    without: without.overall,
    with: shown.overall,
    criteria: criteriaSideBySide(without, shown),
    replays: replay.replays,
  };
}
