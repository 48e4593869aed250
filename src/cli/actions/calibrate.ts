/** `evalgate calibrate`: the calibration report of the reviewer labels kept in the review store. */
import { normaliseContentType } from "../../../prompts/evaluation/index.js";
import { type CalibrationLabelSource, calibrationReport } from "../../calibration/labels.js";
import type { CalibrationReport } from "../../calibration/reportModel.js";
import type { CliContext, StdinInput } from "../context.js";
import { CliError, InputFileError } from "../errors.js";
import { checkedContentType, KNOWN_CONTENT_TYPES } from "../inputFiles.js";
import { writeOutput } from "../outputFile.js";
import { renderCalibrationReport } from "../report/calibration/render.js";
import {
  type CheckpointStore,
  describeStore,
  storeExists,
  storeOfFlags,
  withReviewStore,
} from "../review/store.js";
import { runCalibrateApply } from "./calibrateApply.js";
import { runCalibrateCompare } from "./calibrateCompare.js";
import type { CalibrateCommandOptions } from "./calibrateSources.js";

/** The --content-type: a typo is refused, not answered with an empty report. */
async function contentTypeOf(
  given: string | undefined,
  reviews: CalibrationLabelSource,
): Promise<string | undefined> {
  if (given === undefined) return undefined;
  const normalised = normaliseContentType(given);
  if (KNOWN_CONTENT_TYPES.includes(normalised)) return normalised;
  const stored = (await calibrationReport({ store: reviews })).contentTypes.map(
    (group) => group.contentType,
  );
  return checkedContentType(given, stored);
}

async function readReport(
  store: CheckpointStore,
  options: CalibrateCommandOptions,
): Promise<CalibrationReport> {
  return withReviewStore(store, (reviews) =>
    calibrationReport({
      store: reviews,
      ...(options.since === undefined ? {} : { since: options.since }),
      ...(options.until === undefined ? {} : { until: options.until }),
      ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
    }),
  );
}

/** One line for stderr: how many labels and decisions the report rests on. */
function summaryLine(report: CalibrationReport, where: string): string {
  const { labels } = report.overall.counts;
  if (labels === 0) return `no reviewer labels in ${where} for this scope\n`;
  return `${labels} label${labels === 1 ? "" : "s"} of ${report.gate.decisions} decision${report.gate.decisions === 1 ? "" : "s"} from ${where}\n`;
}

export async function runCalibrate(
  options: CalibrateCommandOptions,
  context: CliContext,
  input?: StdinInput,
): Promise<void> {
  const store = storeOfFlags(options, context.env, context.cwd);
  const where = describeStore(store, context.cwd);
  // Reading must not create an empty database where the user mistyped a path.
  if (!storeExists(store)) {
    throw new InputFileError("--db file", where, "does not exist (no reviews were kept there)");
  }
  if (options.compare === true && options.apply === true) {
    throw new CliError("--compare and --apply are two runs: give one of them");
  }
  if (options.force === true && options.apply !== true) {
    throw new CliError("--force goes with --apply");
  }
  // One content type for the report, --compare and --apply: any spelling, a typo refused.
  const contentType =
    options.contentType === undefined
      ? undefined
      : await withReviewStore(store, (reviews) => contentTypeOf(options.contentType, reviews));
  const scoped = { ...options, ...(contentType === undefined ? {} : { contentType }) };
  if (options.compare === true) return runCalibrateCompare(store, scoped, context);
  if (options.apply === true) return runCalibrateApply(store, scoped, context, input);
  const report = await readReport(store, scoped);
  const text = renderCalibrationReport(report, options.format);
  await writeOutput(text, options.out, `the ${options.format} calibration report`, context);
  context.stderr.write(summaryLine(report, where));
}
