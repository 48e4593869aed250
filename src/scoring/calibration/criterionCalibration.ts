/**
 * The calibration figures of one group of labels (one criterion of one content type, or every
 * label of a content type pooled): counts, the pass/fail table, observed agreement, Cohen's κ,
 * Spearman's ρ and the disagreements by direction.
 */
import { z } from "zod";
import type { CalibrationLabel } from "../calibrationLabel.js";
import { FigureSchema } from "./figure.js";
import {
  AgreementTableSchema,
  agreementTable,
  cohenKappa,
  observedAgreement,
  type PassPair,
} from "./kappa.js";
import { isJudgeError, judgePassOf, reviewerPassOf, reviewerScoreOf } from "./labelOutcome.js";
import { type ScorePair, spearmanRho } from "./spearman.js";

export const LabelCountsSchema = z.object({
  labels: z.number().int().min(0),
  /** Labels where the reviewer marked the judge's score and gave the right one. */
  marked: z.number().int().min(0),
  /** Labels where the reviewer decided without marking: they accepted the judge's score then. */
  accepted: z.number().int().min(0),
  /** Labels without a judge score (the judge could not answer): in no figure. */
  judgeErrors: z.number().int().min(0),
  /** Labels with both a judge and a reviewer pass/fail: the κ and agreement base. */
  compared: z.number().int().min(0),
});
export type LabelCounts = z.infer<typeof LabelCountsSchema>;

export const GroupFiguresSchema = z.object({
  counts: LabelCountsSchema,
  table: AgreementTableSchema,
  /** Share of compared labels on which judge and reviewer agree. */
  agreement: FigureSchema,
  kappa: FigureSchema,
  /** ρ of judge score vs reviewer score over the marked labels. */
  spearmanMarked: FigureSchema,
  /** ρ over every label with both scores (an accepted label's: the judge's at decision time). */
  spearmanAll: FigureSchema,
  disagreements: z.object({
    count: z.number().int().min(0),
    /** count / compared; null when nothing was compared. */
    rate: z.number().min(0).max(1).nullable(),
    /** Judge passed, reviewer failed. */
    judgeTooLenient: z.number().int().min(0),
    /** Judge failed, reviewer passed. */
    judgeTooStrict: z.number().int().min(0),
  }),
});
export type GroupFigures = z.infer<typeof GroupFiguresSchema>;

function countLabels(labels: readonly CalibrationLabel[], compared: number): LabelCounts {
  return {
    labels: labels.length,
    marked: labels.filter((label) => label.source === "marked").length,
    accepted: labels.filter((label) => label.source === "accepted").length,
    judgeErrors: labels.filter(isJudgeError).length,
    compared,
  };
}

function passPairs(labels: readonly CalibrationLabel[]): PassPair[] {
  const pairs: PassPair[] = [];
  for (const label of labels) {
    const judge = judgePassOf(label);
    const reviewer = reviewerPassOf(label);
    if (judge !== null && reviewer !== null) pairs.push({ judge, reviewer });
  }
  return pairs;
}

/** Judge score against reviewer score, over the marked labels only or over every label. */
export function scorePairs(labels: readonly CalibrationLabel[], markedOnly: boolean): ScorePair[] {
  const pairs: ScorePair[] = [];
  for (const label of labels) {
    if (markedOnly && label.source !== "marked") continue;
    const reviewer = reviewerScoreOf(label);
    if (label.judgeScore !== null && reviewer !== null) {
      pairs.push({ judge: label.judgeScore, reviewer });
    }
  }
  return pairs;
}

export function groupFigures(labels: readonly CalibrationLabel[]): GroupFigures {
  const pairs = passPairs(labels);
  const table = agreementTable(pairs);
  const count = table.judgeOnlyPass + table.reviewerOnlyPass;
  return {
    counts: countLabels(labels, pairs.length),
    table,
    agreement: observedAgreement(table),
    kappa: cohenKappa(table),
    spearmanMarked: spearmanRho(scorePairs(labels, true)),
    spearmanAll: spearmanRho(scorePairs(labels, false)),
    disagreements: {
      count,
      rate: pairs.length === 0 ? null : count / pairs.length,
      judgeTooLenient: table.judgeOnlyPass,
      judgeTooStrict: table.reviewerOnlyPass,
    },
  };
}
