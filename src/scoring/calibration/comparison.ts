/**
 * The with/without comparison of few-shot examples (`calibrate --compare`): the judge's agreement
 * with the reviewers on the same labels, judged again without and with reviewer corrections as
 * examples — overall and per criterion — and the measurement the review store keeps of it.
 */
import { z } from "zod";
import { GroupFiguresSchema } from "./criterionCalibration.js";
import { CalibrationReportSchema } from "./reportSchema.js";

export const ReplayedLabelSchema = z.object({
  labelId: z.string(),
  contentType: z.string(),
  criterionId: z.string(),
  decidedAt: z.string(),
  /** The replayed judge's 0–1 score without and with examples (null: not evaluated). */
  scoreWithout: z.number().nullable(),
  scoreWith: z.number().nullable(),
  /** The corrections shown as examples, with the time each was decided. */
  examples: z.array(z.object({ labelId: z.string(), decidedAt: z.string() })),
});
export type ReplayedLabel = z.infer<typeof ReplayedLabelSchema>;

/** One criterion's figures in both arms, on the same replayed labels. */
export const CriterionComparisonSchema = z.object({
  contentType: z.string(),
  criterionId: z.string(),
  title: z.string(),
  without: GroupFiguresSchema,
  with: GroupFiguresSchema,
});
export type CriterionComparison = z.infer<typeof CriterionComparisonSchema>;

export const CalibrationComparisonSchema = z.object({
  /** Labels in the period. */
  labels: z.number().int().min(0),
  /** Labels judged again in both arms. */
  replayed: z.number().int().min(0),
  skipped: z.object({
    /** The evaluation's content was not kept (no traces in the store). */
    noContent: z.number().int().min(0),
    /** The criterion is not in the catalog, or not judged by the model. */
    notInCatalog: z.number().int().min(0),
  }),
  without: GroupFiguresSchema,
  with: GroupFiguresSchema,
  /** Per criterion (by content type, then id). */
  criteria: z.array(CriterionComparisonSchema),
  replays: z.array(ReplayedLabelSchema),
});
export type CalibrationComparison = z.infer<typeof CalibrationComparisonSchema>;

/** What a measurement keeps of a comparison: the figures, not the replay of every label. */
export const RecordedComparisonSchema = CalibrationComparisonSchema.omit({ replays: true });
export type RecordedComparison = z.infer<typeof RecordedComparisonSchema>;

/** The circumstances of one comparison: when, over which labels, with which judge and catalog. */
export const ComparisonContextSchema = z.object({
  measuredAt: z.string(),
  /** The period and content type asked for (null: open). */
  since: z.string().nullable(),
  until: z.string().nullable(),
  contentType: z.string().nullable(),
  /** The judge, as `provider:model`. */
  model: z.string(),
  catalog: z.object({ id: z.string(), version: z.string() }),
});
export type ComparisonContext = z.infer<typeof ComparisonContextSchema>;

/** One `calibrate --compare` run as the review store keeps it (the latest is on the page). */
export const CalibrationMeasurementSchema = ComparisonContextSchema.extend({
  id: z.string(),
  comparison: RecordedComparisonSchema,
});
export type CalibrationMeasurement = z.infer<typeof CalibrationMeasurementSchema>;
export type NewCalibrationMeasurement = Omit<CalibrationMeasurement, "id">;

/**
 * `calibrate --compare --format json`: the calibration report of the period's labels and the
 * comparison, in one object.
 */
export const ComparedCalibrationSchema = ComparisonContextSchema.extend({
  calibration: CalibrationReportSchema,
  comparison: CalibrationComparisonSchema,
});
export type ComparedCalibration = z.infer<typeof ComparedCalibrationSchema>;
