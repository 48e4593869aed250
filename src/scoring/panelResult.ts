import { z } from "zod";

/** How a panel's answers become the criterion's score. */
export const PanelAggregateSchema = z.enum(["median", "mean", "majority"]);
export type PanelAggregate = z.infer<typeof PanelAggregateSchema>;

export const AgreementMetricSchema = z.enum(["nominal", "ordinal", "interval"]);

/** One panel member's answer for one criterion. */
export const PanelAnswerSchema = z.object({
  judge: z.string(),
  evaluated: z.boolean(),
  score: z.number().min(0).max(1).nullable(),
  native: z.union([z.number(), z.string()]).nullable(),
  reasoning: z.string(),
  /** Why this member gave no answer: a gap in the panel, reported, never left out silently. */
  judgeError: z.string().optional(),
});
export type PanelAnswer = z.infer<typeof PanelAnswerSchema>;

/** A criterion judged by a panel: every member's answer, the aggregate, and their agreement. */
export const CriterionPanelSchema = z.object({
  answers: z.array(PanelAnswerSchema),
  aggregate: PanelAggregateSchema,
  /**
   * Agreement of the answers on the criterion's scale (1 − observed / chance disagreement);
   * null with fewer than two answers.
   */
  agreement: z.number().max(1).nullable(),
  metric: AgreementMetricSchema,
});
export type CriterionPanel = z.infer<typeof CriterionPanelSchema>;

/** The panel of an evaluation: its judges, how they were aggregated, and their overall agreement. */
export const PanelSummarySchema = z.object({
  judges: z.array(z.string()),
  aggregate: PanelAggregateSchema,
  minAgreement: z.number().optional(),
  /**
   * Krippendorff's alpha over the panel's criteria (interval, on the 0–1 scores); null when it is
   * undefined (fewer than two criteria with two answers, or no variation at all).
   */
  agreement: z.number().max(1).nullable(),
  /** Criterion answers a member could not give. */
  gaps: z.number().int().min(0),
});
export type PanelSummary = z.infer<typeof PanelSummarySchema>;
