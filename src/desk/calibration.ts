/** The desk's calibration view (admins): the labels' report, no judge call, and the latest comparison. */
import { calibrationReport } from "../calibration/labels.js";
import type { CalibrationMeasurement, CalibrationReport } from "../calibration/reportModel.js";
import type { Reviewer } from "../store/reviewers.js";
import type { DeskContext } from "./actions.js";
import { forbidden, invalidInput } from "./errors.js";

export interface CalibrationOverview {
  report: CalibrationReport;
  /** Null until `evalgate calibrate --compare` has recorded one in this database. */
  comparison: CalibrationMeasurement | null;
}

/** The days of labels read by default (a page load reads a bounded window), and at most. */
const CALIBRATION_DAYS = 90;
export const MAX_CALIBRATION_DAYS = 3660;

const DAY_MS = 86_400_000;

export async function calibrationOverview(
  ctx: DeskContext,
  by: Reviewer,
  days: number = CALIBRATION_DAYS,
): Promise<CalibrationOverview> {
  if (by.role !== "admin") throw forbidden("see the calibration report", by.name);
  if (!Number.isInteger(days) || days < 1 || days > MAX_CALIBRATION_DAYS) {
    throw invalidInput("days", `a whole number of days from 1 to ${MAX_CALIBRATION_DAYS}`);
  }
  const since = new Date(Date.now() - days * DAY_MS).toISOString();
  const [report, latest] = await Promise.all([
    calibrationReport({ store: ctx.store, since }),
    ctx.store.latestCalibrationMeasurement(),
  ]);
  return { report, comparison: latest ?? null };
}
