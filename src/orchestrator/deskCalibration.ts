/**
 * The review desk's calibration view (admins only): the calibration report of the labels the
 * store keeps — the computation `evalgate calibrate` makes, no judge call — and the few-shot
 * comparison `evalgate calibrate --compare` recorded last.
 */
import { calibrationReport } from "./calibrationReport.js";
import type { DeskContext } from "./deskActions.js";
import { forbidden } from "./deskErrors.js";
import type { CalibrationOverview, Reviewer } from "./reviewDesk.js";

export async function calibrationOverview(
  ctx: DeskContext,
  by: Reviewer,
): Promise<CalibrationOverview> {
  if (by.role !== "admin") throw forbidden("see the calibration report", by.name);
  const [report, latest] = await Promise.all([
    calibrationReport({ store: ctx.store }),
    ctx.store.latestCalibrationMeasurement(),
  ]);
  return { report, comparison: latest ?? null };
}
