/**
 * Calibration: how well the judge agrees with the reviewers who decide, from reviewer labels —
 * Cohen's κ on pass/fail, Spearman's ρ on scores, the threshold sweep, the disagreement ranking.
 */
export {
  type BuildReportOptions,
  buildCalibrationReport,
  type CalibrationScope,
} from "./buildReport.js";
export {
  type CalibrationComparison,
  CalibrationComparisonSchema,
  type CalibrationMeasurement,
  CalibrationMeasurementSchema,
  type ComparedCalibration,
  ComparedCalibrationSchema,
  type ComparisonContext,
  type CriterionComparison,
  type NewCalibrationMeasurement,
  type RecordedComparison,
  type ReplayedLabel,
} from "./comparison.js";
export { type GroupFigures, GroupFiguresSchema, type LabelCounts } from "./criterionCalibration.js";
export { describeMissing, type Figure, FigureSchema, type MissingFigure } from "./figure.js";
export { type GateFigures, GateFiguresSchema } from "./gateAgreement.js";
export { type AgreementTable, agreementTable, cohenKappa, observedAgreement } from "./kappa.js";
export {
  type CalibrationReport,
  CalibrationReportSchema,
  type ContentTypeCalibration,
  type CriterionCalibration,
  type Disagreement,
} from "./reportSchema.js";
export { averageRanks, type ScorePair, spearmanRho } from "./spearman.js";
export {
  SWEEP_STEPS,
  sweepThresholds,
  type ThresholdPoint,
  type ThresholdSweep,
} from "./thresholdSweep.js";
