/**
 * `evalgate calibrate --compare`: the labelled evaluations of the period judged again without and
 * with reviewer corrections as few-shot examples (each shown only corrections decided before it),
 * and the judge's agreement with the reviewers in both arms, side by side.
 */
import { resolve } from "node:path";
import { compareFewShot, storeExampleSource } from "../../calibration/fewShot.js";
import {
  calibrationReport,
  readCalibrationLabels,
  resolveScope,
} from "../../calibration/labels.js";
import type {
  CalibrationComparison,
  ComparedCalibration,
  ComparisonContext,
} from "../../calibration/reportModel.js";
import { contentOfTraces } from "../../judge/tracedContent.js";
import { createChatModel } from "../../llm/chatModel.js";
import { redactSecretText } from "../../redact.js";
import { openReviewStore } from "../../store/index.js";
import type { ReviewStore } from "../../store/types.js";
import type { CliContext } from "../context.js";
import { readyModel } from "../modelCheck.js";
import { writeFileAtomically } from "../outputFile.js";
import { type CalibrationFormat, renderComparison } from "../report/calibration/render.js";
import type { CheckpointStore } from "../review/store.js";
import {
  type CatalogFlags,
  catalogOfFlags,
  openTraceStore,
  registryOptions,
} from "./calibrateSources.js";

export interface CompareOptions extends CatalogFlags {
  since?: string;
  until?: string;
  contentType?: string;
  model?: string;
  format: CalibrationFormat;
  out?: string;
}

/**
 * The report of the same labels beside the comparison, and the comparison's figures recorded in
 * the store (the service's calibration page shows the latest).
 */
async function comparedCalibration(
  reviews: ReviewStore,
  context: ComparisonContext,
  comparison: CalibrationComparison,
): Promise<ComparedCalibration> {
  const calibration = await calibrationReport({
    store: reviews,
    generatedAt: context.measuredAt,
    ...(context.since === null ? {} : { since: context.since }),
    ...(context.until === null ? {} : { until: context.until }),
    ...(context.contentType === null ? {} : { contentType: context.contentType }),
  });
  const { replays: _perLabel, ...figures } = comparison;
  await reviews.recordCalibrationMeasurement({ ...context, comparison: figures });
  return { ...context, calibration, comparison };
}

export async function runCalibrateCompare(
  store: CheckpointStore,
  options: CompareOptions,
  context: CliContext,
): Promise<void> {
  const catalog = await catalogOfFlags(options, store, context, "--compare");
  const target = await readyModel(options.model, context);
  const reviews = await openReviewStore(registryOptions(store));
  const { traces, close } = openTraceStore(store);
  try {
    const scope = resolveScope(options);
    const labels = await readCalibrationLabels(reviews, scope);
    const comparison = await compareFewShot({
      labels,
      catalog,
      model: createChatModel(target.spec, {
        env: context.env,
        ...(target.defaultTimeoutMs === undefined ? {} : { timeoutMs: target.defaultTimeoutMs }),
      }),
      examples: storeExampleSource(reviews, traces),
      contentOf: async (label) =>
        contentOfTraces(
          await traces.getTraces({ evaluationId: label.evaluationId }),
          label.criterionId,
        ),
    });
    const compared = await comparedCalibration(
      reviews,
      {
        measuredAt: new Date().toISOString(),
        since: scope.since ?? null,
        until: scope.until ?? null,
        contentType: scope.contentType ?? null,
        // Recorded and shown on a page: a credential in the spec never is.
        model: redactSecretText(target.spec),
        catalog: { id: catalog.id, version: catalog.version },
      },
      comparison,
    );
    const text = renderComparison(compared, options.format);
    if (options.out === undefined) context.stdout.write(text);
    else {
      await writeFileAtomically(resolve(context.cwd, options.out), text);
      context.stderr.write(`wrote the ${options.format} comparison to ${options.out}\n`);
    }
    context.stderr.write(
      `${comparison.replayed} of ${comparison.labels} labels replayed without and with examples\n`,
    );
  } finally {
    await close();
    await reviews.close();
  }
}
