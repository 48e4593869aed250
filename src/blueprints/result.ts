import { z } from "zod";

export const PointAssessmentSchema = z.object({
  /** The key point, or `Function: contains("…")` for a function point. */
  keyPointText: z.string(),
  /** As the point counts (`should_not`: 1 − coverage); null when not assessed, never a zero. */
  coverageExtent: z.number().min(0).max(1).nullable(),
  reflection: z.string(),
  multiplier: z.number().min(0),
  citation: z.string().optional(),
  error: z.string().optional(),
  /** A `should_not` point: what it describes should not be there, so it counts 1 − coverage. */
  inverted: z.literal(true).optional(),
  /** The alternative group and path the point belongs to (both 1-based). */
  alternative: z
    .object({ group: z.number().int().min(1), path: z.number().int().min(1) })
    .optional(),
});
export type PointAssessment = z.infer<typeof PointAssessmentSchema>;

/** An alternative group's paths and the score it counts with. */
export const AlternativeGroupResultSchema = z.object({
  group: z.number().int().min(1),
  block: z.enum(["should", "should_not"]),
  multiplier: z.number().min(0),
  /** Each path's weighted average (its points as they count); null when one was not assessed. */
  pathScores: z.array(z.number().min(0).max(1).nullable()),
  /** The path that decided (1-based): the best in `should`, the worst in `should_not`. */
  decidingPath: z.number().int().min(1).nullable(),
  /** The group's score; null when one of its paths could not be assessed. */
  score: z.number().min(0).max(1).nullable(),
});
export type AlternativeGroupResult = z.infer<typeof AlternativeGroupResultSchema>;

export const CoverageResultSchema = z.object({
  keyPointsCount: z.number().int().min(0),
  /** Σ multiplier·score / Σ multiplier over what was assessed; null when nothing was. */
  avgCoverageExtent: z.number().min(0).max(1).nullable(),
  pointAssessments: z.array(PointAssessmentSchema),
  alternativeGroups: z.array(AlternativeGroupResultSchema).optional(),
  error: z.string().optional(),
  /** The answer is held for a human (e.g. it tries to steer the judge): never a pass. */
  humanReviewRequired: z.literal(true).optional(),
  humanReviewReasons: z.array(z.string()).optional(),
});
export type CoverageResult = z.infer<typeof CoverageResultSchema>;

/** A candidate that could not answer the prompt. */
const CoverageErrorSchema = z.object({ error: z.string() });

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
