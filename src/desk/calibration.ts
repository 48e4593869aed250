/**
 * The review desk's calibration view (admins only): the calibration report of the labels the
 * store keeps — the computation `evalgate calibrate` makes, no judge call — and the few-shot
 * comparison `evalgate calibrate --compare` recorded last.
 */

import { calibrationReport } from "../calibration/labels.js";
import type { Reviewer } from "../store/reviewers.js";
import type { DeskContext } from "./actions.js";
import { forbidden, invalidInput } from "./errors.js";
import type { CalibrationOverview } from "./reviewDesk.js";

/** The days of labels the calibration view reads by default, and at most. */
export const CALIBRATION_DAYS = 90;
export const MAX_CALIBRATION_DAYS = 3660;

const DAY_MS = 86_400_000;

/**
 * The view over the labels decided in the last `days` days: a page load reads a bounded window,
 * not every label the store ever kept (`evalgate calibrate` reads any period it is given).
 */
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
