import { z } from "zod";
import { AgreementTableSchema, FigureSchema } from "./figures.js";

const count = z.number().int().min(0);
const share = z.number().min(0).max(1);
/** Which criterion of which content type. */
const criterionKey = { contentType: z.string(), criterionId: z.string(), title: z.string() };
/** The pass/fail table of judge against reviewer, its observed agreement and Cohen's κ. */
const agreementFields = {
  table: AgreementTableSchema,
  agreement: FigureSchema,
  kappa: FigureSchema,
};

/** The figures of a group of labels (one criterion, or a content type or every label pooled). */
const GroupFiguresSchema = z.object({
  counts: z.object({
    labels: count,
    /** The reviewer marked the judge's score and gave the right one. */
    marked: count,
    /** The reviewer decided without marking: they accepted the judge's score then. */
    accepted: count,
    /** No judge score (the judge could not answer): in no figure. */
    judgeErrors: count,
    /** Both a judge and a reviewer pass/fail: the κ and agreement base. */
    compared: count,
  }),
  ...agreementFields,
  /** ρ of judge score vs reviewer score over the marked labels. */
  spearmanMarked: FigureSchema,
  /** ρ over every label with both scores (an accepted label's: the judge's at decision time). */
  spearmanAll: FigureSchema,
  disagreements: z.object({
    count,
    /** count / compared; null when nothing was compared. */
    rate: share.nullable(),
    /** Judge passed, reviewer failed. */
    judgeTooLenient: count,
    /** Judge failed, reviewer passed. */
    judgeTooStrict: count,
  }),
});
export type GroupFigures = z.infer<typeof GroupFiguresSchema>;

/** The gate as a whole: one pair per decision, the judge's gate against the reviewer's approval. */
const GateFiguresSchema = z.object({
  decisions: count,
  /** The gate did not pass for want of a judge's answer: in no gate figure. */
  judgeErrors: count,
  approve: count,
  revise: count,
  edit: count,
  ...agreementFields,
});
export type GateFigures = z.infer<typeof GateFiguresSchema>;

const ThresholdPointSchema = z.object({
  threshold: share,
  /** Labels on which the judge's pass/fail at this threshold matches the reviewer's. */
  agreed: count,
  agreement: share,
});
export type ThresholdPoint = z.infer<typeof ThresholdPointSchema>;

const ThresholdSweepSchema = z.object({
  compared: count,
  current: ThresholdPointSchema,
  best: ThresholdPointSchema,
  curve: z.array(ThresholdPointSchema),
});
export type ThresholdSweep = z.infer<typeof ThresholdSweepSchema>;

const CriterionCalibrationSchema = z.object({
  ...criterionKey,
  method: z.string(),
  /** The threshold in the latest label: the one the sweep calls current. */
  threshold: share,
  /** Every threshold the labels carry, ascending (more than one when the catalog changed). */
  thresholdsSeen: z.array(z.number()),
  figures: GroupFiguresSchema,
  /** Null when fewer than 2 labels could be compared. */
  sweep: ThresholdSweepSchema.nullable(),
  /** Judge score vs reviewer score of the marked labels, for the scatter chart. */
  markedScores: z.array(z.object({ judge: z.number(), reviewer: z.number() })),
});
export type CriterionCalibration = z.infer<typeof CriterionCalibrationSchema>;

const ContentTypeCalibrationSchema = z.object({
  contentType: z.string(),
  /** Every catalog version (`name@version`) the labels' judge used, ascending. */
  judgedWith: z.array(z.string()),
  figures: GroupFiguresSchema,
  gate: GateFiguresSchema,
  criteria: z.array(CriterionCalibrationSchema),
});
export type ContentTypeCalibration = z.infer<typeof ContentTypeCalibrationSchema>;

const DisagreementSchema = z.object({
  ...criterionKey,
  disagreed: z.number().int().min(1),
  compared: z.number().int().min(1),
  rate: share,
  judgeTooLenient: count,
  judgeTooStrict: count,
});
export type Disagreement = z.infer<typeof DisagreementSchema>;

/** The period and content type asked for (null: open). */
const scope = {
  since: z.string().nullable(),
  until: z.string().nullable(),
  contentType: z.string().nullable(),
};

export const CalibrationReportSchema = z.object({
  generatedAt: z.string(),
  window: z.object({
    ...scope,
    /** The first and last decision among the labels (null when there are none). */
    firstDecision: z.string().nullable(),
    lastDecision: z.string().nullable(),
  }),
  overall: GroupFiguresSchema,
  gate: GateFiguresSchema,
  contentTypes: z.array(ContentTypeCalibrationSchema),
  /** Criteria with at least one disagreement, the most disagreeing first. */
  disagreements: z.array(DisagreementSchema),
});
export type CalibrationReport = z.infer<typeof CalibrationReportSchema>;

/** One label judged again without and with examples (scores 0–1; null: not evaluated). */
const ReplayedLabelSchema = z.object({
  labelId: z.string(),
  contentType: z.string(),
  criterionId: z.string(),
  decidedAt: z.string(),
  scoreWithout: z.number().nullable(),
  scoreWith: z.number().nullable(),
  /** The corrections shown as examples, with the time each was decided. */
  examples: z.array(z.object({ labelId: z.string(), decidedAt: z.string() })),
});
export type ReplayedLabel = z.infer<typeof ReplayedLabelSchema>;

const CriterionComparisonSchema = z.object({
  ...criterionKey,
  without: GroupFiguresSchema,
  with: GroupFiguresSchema,
});

const CalibrationComparisonSchema = z.object({
  /** Labels in the period. */
  labels: count,
  /** Labels judged again in both arms. */
  replayed: count,
  skipped: z.object({
    /** The evaluation's content was not kept (no traces in the store). */
    noContent: count,
    /** The criterion is not in the catalog, or not judged by the model. */
    notInCatalog: count,
  }),
  without: GroupFiguresSchema,
  with: GroupFiguresSchema,
  /** Per criterion (by content type, then id). */
  criteria: z.array(CriterionComparisonSchema),
  replays: z.array(ReplayedLabelSchema),
});
export type CalibrationComparison = z.infer<typeof CalibrationComparisonSchema>;

/** What a measurement keeps of a comparison: the figures, not the replay of every label. */
const RecordedComparisonSchema = CalibrationComparisonSchema.omit({ replays: true });
export type RecordedComparison = z.infer<typeof RecordedComparisonSchema>;

/** The circumstances of one comparison: when, over which labels, with which judge and catalog. */
const ComparisonContextSchema = z.object({
  measuredAt: z.string(),
  ...scope,
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

/** `calibrate --compare --format json`: the report of the period's labels and the comparison. */
export const ComparedCalibrationSchema = ComparisonContextSchema.extend({
  calibration: CalibrationReportSchema,
  comparison: CalibrationComparisonSchema,
});
export type ComparedCalibration = z.infer<typeof ComparedCalibrationSchema>;
