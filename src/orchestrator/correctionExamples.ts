/**
 * Few-shot examples from the review store: a criterion's reviewer corrections (calibration labels
 * the reviewer marked), each with an excerpt of the content it was about, read from the
 * evaluation's traces in the same database. A correction whose evaluation left no traces there
 * (traces written to a file instead) has no content and is not an example.
 */
import type { ExampleQuery, ExampleSource } from "../judge/exampleSource.js";
import { exampleOfLabel } from "../judge/exampleSource.js";
import type { FewShotExample } from "../judge/fewShot.js";
import { contentOfTraces } from "../judge/tracedContent.js";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import type { Trace } from "../scoring/result.js";

/** The store's read of corrections (the review store on SQLite or PostgreSQL has it). */
export interface CorrectionLabelReader {
  correctionLabels(query: ExampleQuery): Promise<CalibrationLabel[]>;
}

/** The store's read of an evaluation's traces (the trace store has it). */
export interface EvaluationTraceReader {
  getTraces(query: { evaluationId: string }): Promise<Trace[]>;
}

/** Evaluations whose traces one source keeps in memory (the most recently read). */
const TRACE_MEMORY = 256;

/**
 * An ExampleSource over the review store's calibration labels and trace store: the corrections of
 * a criterion decided before the time asked, newest first, each with its content excerpt.
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
