/**
 * `evalgate calibrate --compare`: the period's labelled evaluations judged again without and with
 * few-shot corrections.
 */
import { compareFewShot, storeExampleSource } from "../../calibration/fewShot.js";
import { readCalibrationLabels, resolveScope } from "../../calibration/labels.js";
import { buildCalibrationReport } from "../../calibration/report.js";
import { contentOfTraces } from "../../judge/tracedContent.js";
import { redactSecretText } from "../../redact.js";
import { openReviewStore } from "../../store/index.js";
import type { CliContext } from "../context.js";
import { checkOutFile, writeOutput } from "../outputFile.js";
import { readyJudge } from "../panelJudges.js";
import { renderComparison } from "../report/calibration/render.js";
import { type CheckpointStore, storeConnection } from "../review/store.js";
import {
  type CalibrateCommandOptions,
  catalogOfFlags,
  openTraceStore,
} from "./calibrateSources.js";

/**
 * Replays the period's labels and records the comparison (the calibration page shows the latest).
 */
export async function runCalibrateCompare(
  store: CheckpointStore,
  options: CalibrateCommandOptions,
  context: CliContext,
): Promise<void> {
  checkOutFile(options.out, [["catalog", options.catalog]], context.cwd);
  const catalog = await catalogOfFlags(options, store, context, "--compare");
  const { target, model } = await readyJudge(options.model, undefined, context);
  const reviews = await openReviewStore(storeConnection(store));
  const { traces, close } = openTraceStore(store);
  try {
    const scope = resolveScope(options);
    const labels = await readCalibrationLabels(reviews, scope);
    const comparison = await compareFewShot({
      labels,
      catalog,
      model,
      examples: storeExampleSource(reviews, traces),
      contentOf: async (label) =>
        contentOfTraces(
          await traces.getTraces({ evaluationId: label.evaluationId }),
          label.criterionId,
        ),
    });
    const measured = {
      measuredAt: new Date().toISOString(),
      since: scope.since ?? null,
      until: scope.until ?? null,
      contentType: scope.contentType ?? null,
      // Recorded and shown on a page: a credential in the spec never is.
      model: redactSecretText(target.spec),
      catalog: { id: catalog.id, version: catalog.version },
    };
    const { replays: _perLabel, ...figures } = comparison;
    await reviews.recordCalibrationMeasurement({ ...measured, comparison: figures });
    const calibration = buildCalibrationReport(labels, {
      ...scope,
      generatedAt: measured.measuredAt,
    });
    const text = renderComparison({ ...measured, calibration, comparison }, options.format);
    await writeOutput(text, options.out, `the ${options.format} comparison`, context);
    context.stderr.write(
      `${comparison.replayed} of ${comparison.labels} labels replayed without and with examples\n`,
    );
  } finally {
    await close();
    await reviews.close();
  }
}
