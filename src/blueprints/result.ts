/**
 * The comparison document a blueprint run writes: the candidates' answers and, under
 * `evaluationResults.llmCoverageScores`, each prompt's coverage per model with one assessment per
 * point.
 */
import { z } from "zod";

export const PointAssessmentSchema = z.object({
  /** The key point, or `Function: contains("…")` for a function point. */
  keyPointText: z.string(),
  /** 0–1; null when the judge could not assess the point (never silently a zero). */
  coverageExtent: z.number().min(0).max(1).nullable(),
  reflection: z.string(),
  multiplier: z.number().min(0),
  citation: z.string().optional(),
  /** Why the point could not be assessed. */
  error: z.string().optional(),
});
export type PointAssessment = z.infer<typeof PointAssessmentSchema>;

export const CoverageResultSchema = z.object({
  keyPointsCount: z.number().int().min(0),
  /** Σ multiplier·coverage / Σ multiplier over the assessed points; null when none was. */
  avgCoverageExtent: z.number().min(0).max(1).nullable(),
  pointAssessments: z.array(PointAssessmentSchema),
  /** Set when some points could not be assessed. */
  error: z.string().optional(),
});
export type CoverageResult = z.infer<typeof CoverageResultSchema>;

/** A candidate that could not answer the prompt. */
export const CoverageErrorSchema = z.object({ error: z.string() });

export const BlueprintRunSchema = z.object({
  configId: z.string(),
  configTitle: z.string(),
  runLabel: z.string(),
  timestamp: z.string(),
  models: z.array(z.string()),
  /** The judge model and the sampling seed of its calls (null: none sent). */
  judge: z.object({ model: z.string(), seed: z.number().int().nullable() }),
  promptIds: z.array(z.string()),
  promptTexts: z.record(z.string(), z.string()),
  /** prompt id → model → the answer. */
  allFinalAssistantResponses: z.record(z.string(), z.record(z.string(), z.string())),
  evaluationResults: z.object({
    /** prompt id → model → coverage (or why there is none). */
    llmCoverageScores: z.record(
      z.string(),
      z.record(z.string(), z.union([CoverageResultSchema, CoverageErrorSchema])),
    ),
  }),
});
export type BlueprintRun = z.infer<typeof BlueprintRunSchema>;
