/** The calibration report's shape: what `calibrationReport()` returns and `--format json` prints. */
import { z } from "zod";
import { GroupFiguresSchema } from "./criterionCalibration.js";
import { GateFiguresSchema } from "./gateAgreement.js";
import { ThresholdSweepSchema } from "./thresholdSweep.js";

export const ScorePointSchema = z.object({ judge: z.number(), reviewer: z.number() });

export const CriterionCalibrationSchema = z.object({
  contentType: z.string(),
  criterionId: z.string(),
  /** The title in the latest label. */
  title: z.string(),
  method: z.string(),
  /** The threshold in the latest label: the one the sweep calls current. */
  threshold: z.number().min(0).max(1),
  /** Every threshold the labels carry, ascending (more than one when the catalog changed). */
  thresholdsSeen: z.array(z.number()),
  figures: GroupFiguresSchema,
  /** Null when fewer than 2 labels could be compared. */
  sweep: ThresholdSweepSchema.nullable(),
  /** Judge score vs reviewer score of the marked labels, for the scatter chart. */
  markedScores: z.array(ScorePointSchema),
});
export type CriterionCalibration = z.infer<typeof CriterionCalibrationSchema>;

export const ContentTypeCalibrationSchema = z.object({
  contentType: z.string(),
  /** Every label of the content type pooled (each label one unit). */
  figures: GroupFiguresSchema,
  gate: GateFiguresSchema,
  criteria: z.array(CriterionCalibrationSchema),
});
export type ContentTypeCalibration = z.infer<typeof ContentTypeCalibrationSchema>;

export const DisagreementSchema = z.object({
  contentType: z.string(),
  criterionId: z.string(),
  title: z.string(),
  disagreed: z.number().int().min(1),
  compared: z.number().int().min(1),
  rate: z.number().min(0).max(1),
  judgeTooLenient: z.number().int().min(0),
  judgeTooStrict: z.number().int().min(0),
});
export type Disagreement = z.infer<typeof DisagreementSchema>;

export const CalibrationWindowSchema = z.object({
  /** ISO 8601 bounds asked for (null: open). */
  since: z.string().nullable(),
  until: z.string().nullable(),
  contentType: z.string().nullable(),
  /** The first and last decision among the labels (null when there are none). */
  firstDecision: z.string().nullable(),
  lastDecision: z.string().nullable(),
});
export type CalibrationWindow = z.infer<typeof CalibrationWindowSchema>;

export const CalibrationReportSchema = z.object({
  generatedAt: z.string(),
  window: CalibrationWindowSchema,
  /** Every label pooled. */
  overall: GroupFiguresSchema,
  gate: GateFiguresSchema,
  contentTypes: z.array(ContentTypeCalibrationSchema),
  /** Criteria with at least one disagreement, the most disagreeing first. */
  disagreements: z.array(DisagreementSchema),
});
export type CalibrationReport = z.infer<typeof CalibrationReportSchema>;
