/** The evidence a catalog version keeps for its thresholds, when `calibrate --apply` wrote it. */
import { z } from "zod";

export const MAX_EVIDENCE_LABELS = 500;

/** Agreement and Cohen's κ of the judge with the reviewers at the old and the new threshold. */
const ThresholdFiguresSchema = z.object({
  compared: z.number().int().min(0),
  agreementBefore: z.number().min(0).max(1),
  agreementAfter: z.number().min(0).max(1),
  kappaBefore: z.number().nullable(),
  kappaAfter: z.number().nullable(),
  labelIds: z.array(z.string()).max(MAX_EVIDENCE_LABELS),
});

/**
 * Why a version's thresholds changed: in-sample figures on the labels fitted on, and held-out
 * figures on the labels decided later, which the fit never saw.
 */
export const ThresholdCalibrationSchema = z.object({
  appliedAt: z.string(),
  appliedBy: z.string().optional(),
  since: z.string().nullable(),
  until: z.string().nullable(),
  contentType: z.string(),
  changes: z.array(
    ThresholdFiguresSchema.extend({
      criterionId: z.string(),
      from: z.number().min(0).max(1),
      to: z.number().min(0).max(1),
      /** The later labels (decided from `since` on) and the figures on them. */
      heldOut: ThresholdFiguresSchema.extend({ since: z.string() }).optional(),
      /** Written with --force although the held-out agreement dropped. */
      forced: z.boolean().optional(),
    }),
  ),
});
export type ThresholdCalibration = z.infer<typeof ThresholdCalibrationSchema>;
