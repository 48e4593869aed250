import { z } from "zod";
import { isRecord } from "../untrusted/json.js";
import { OutOfRangeSchema } from "./outOfRange.js";
import { ThresholdCalibrationSchema } from "./thresholdCalibration.js";

/** The one internal criteria model every catalog form is normalised into; scores inside are 0–1. */

/** The five scoring-guideline bands of an evaluation-criteria file, on the 0–1 scale. */
export const GUIDELINE_BANDS = ["excellent", "good", "adequate", "poor", "inadequate"] as const;

export const ScoringGuidelinesSchema = z.object({
  excellent: z.string().min(1),
  good: z.string().min(1),
  adequate: z.string().min(1),
  poor: z.string().min(1),
  inadequate: z.string().min(1),
});

/** A judge answers on 0–1, 1–5, 0–100, 0–1000…: nothing needs more. */
export const MAX_SCALE_MAGNITUDE = 1_000_000;

const ScaleEndSchema = z
  .number()
  .refine((n) => Number.isFinite(n) && Math.abs(n) <= MAX_SCALE_MAGNITUDE, {
    message: `a scale's min and max must be finite numbers within ±${MAX_SCALE_MAGNITUDE.toLocaleString("en-US")}`,
  });

export const ScaleSchema = z
  .object({
    min: ScaleEndSchema,
    max: ScaleEndSchema,
    /** Whether the judge must answer with whole numbers (1–5) rather than decimals (0–1). */
    integer: z.boolean().default(false),
  })
  .refine((s) => s.max > s.min, { message: "scale max must be greater than min" });
export type Scale = z.infer<typeof ScaleSchema>;

export const UNIT_SCALE: Scale = { min: 0, max: 1, integer: false };
export const FIVE_POINT_SCALE: Scale = { min: 1, max: 5, integer: true };

export const LevelSchema = z.object({
  id: z.string().min(1),
  label: z.string().min(1),
  description: z.string().default(""),
  score: z.number().min(0).max(1),
  indicators: z.array(z.string()).default([]),
});
export type Level = z.infer<typeof LevelSchema>;

/** LLM score on a native scale, optionally with five guideline bands. */
export const ScoreMethodSchema = z.object({
  kind: z.literal("score"),
  scale: ScaleSchema,
  guidelines: ScoringGuidelinesSchema.optional(),
  outOfRange: OutOfRangeSchema.optional(),
});

/** LLM pass/fail (a funding catalog's check, a rubric item). */
export const CheckMethodSchema = z.object({
  kind: z.literal("check"),
  /** What a pass looks like (a rubric item's expected_outcome); else the description is asked. */
  expectedOutcome: z.string().optional(),
});

/** LLM picks one of named levels (a levels rubric's llm_decode). */
export const LevelsMethodSchema = z.object({
  kind: z.literal("levels"),
  levels: z.array(LevelSchema).min(2),
  /** A prompt template with the target's fields, `content`, `criterion` and `levels` in scope. */
  decodePrompt: z.string().optional(),
  /** Sent as the structured-output format, then checked. */
  decodeOutputSchema: z.record(z.string(), z.unknown()).optional(),
});

/** LLM coverage of one key point, 0–1 with a reflection (a text point of a points list). */
export const PointMethodSchema = z.object({
  kind: z.literal("point"),
  text: z.string().min(1),
  /** The prompt the content answers (a blueprint's), shown with the point. */
  prompt: z.string().optional(),
});

/**
 * A built-in point function or a `module:function` reference: returns a boolean, a 0–1 number,
 * `{ error }`, or a level id when the criterion has levels.
 */
export const FunctionMethodSchema = z.object({
  kind: z.literal("function"),
  name: z.string().min(1),
  args: z.unknown().optional(),
  levels: z.array(LevelSchema).min(2).optional(),
});

/** JSON Schema validation: valid → highest level (or 1), invalid → lowest (or 0). */
export const SchemaMethodSchema = z
  .object({
    kind: z.literal("schema"),
    schema: z.record(z.string(), z.unknown()).optional(),
    schemaRef: z.string().optional(),
    levels: z.array(LevelSchema).min(2).optional(),
  })
  .refine((m) => m.schema !== undefined || m.schemaRef !== undefined, {
    message: "a schema criterion needs an inline schema or a schemaRef",
  });

export const MethodSchema = z.discriminatedUnion(
  "kind",
  [
    ScoreMethodSchema,
    CheckMethodSchema,
    LevelsMethodSchema,
    PointMethodSchema,
    FunctionMethodSchema,
    SchemaMethodSchema,
  ],
  {
    error: (issue) => {
      const kind = isRecord(issue.input) ? issue.input.kind : undefined;
      const which =
        kind === undefined ? "no method kind" : `unknown method kind ${JSON.stringify(kind)}`;
      return `${which}: expected score, check, levels, point, function or schema`;
    },
  },
);
export type Method = z.infer<typeof MethodSchema>;
export type MethodKind = Method["kind"];
export type LevelsMethod = z.infer<typeof LevelsMethodSchema>;
export type FunctionMethod = z.infer<typeof FunctionMethodSchema>;

export const METHOD_KINDS = ["score", "check", "levels", "point", "function", "schema"] as const;

/** Methods answered by the LLM judge; the others are deterministic. */
export const LLM_METHOD_KINDS: ReadonlySet<MethodKind> = new Set([
  "score",
  "check",
  "levels",
  "point",
]);

export function isLlmMethod(method: Method): boolean {
  return LLM_METHOD_KINDS.has(method.kind);
}

/** Criterion ids key the result's scores: `__proto__` could not be one of those keys. */
const CriterionIdSchema = z
  .string()
  .min(1)
  .refine((id) => id !== "__proto__", {
    message: 'the criterion id "__proto__" is reserved: choose another id',
  });

export const CriterionSchema = z.object({
  id: CriterionIdSchema,
  title: z.string().min(1),
  /** What the judge is asked. */
  description: z.string().min(1),
  weight: z.number().min(0),
  critical: z.boolean().default(false),
  /** A knockout gate: failing it gives REJECTED; its weight does not enter the total. Always critical. */
  knockout: z.boolean().default(false),
  /** A required criterion that could not be evaluated fails the gate; an optional one is left out. */
  required: z.boolean().default(true),
  /** The catalog's when absent. */
  passingThreshold: z.number().min(0).max(1).optional(),
  citation: z.string().optional(),
  method: MethodSchema,
});
export type Criterion = z.infer<typeof CriterionSchema>;
export type CriterionInput = z.input<typeof CriterionSchema>;

/** Funding status on the native scale: FUNDABLE at or above `fundable`, REJECTED below `rejectBelow`. */
export const StatusRulesSchema = z
  .object({
    scale: ScaleSchema.default(FIVE_POINT_SCALE),
    fundable: z.number().default(4.0),
    rejectBelow: z.number().optional(),
  })
  .superRefine((r, context) => {
    if (r.rejectBelow === undefined || r.rejectBelow <= r.fundable) return;
    context.addIssue({
      code: "custom",
      path: ["rejectBelow"],
      message: `the total to reject below (${r.rejectBelow}) must not exceed the fundable threshold (${r.fundable})`,
    });
  });
export type StatusRules = z.infer<typeof StatusRulesSchema>;

export const DEFAULT_PASSING_THRESHOLD = 0.7;

export const MAX_FEW_SHOT_EXAMPLES = 10;
export const MAX_FEW_SHOT_TOKENS = 4000;

/** Reviewer corrections as few-shot examples (off by default): the most similar, within a token budget. */
export const FewShotSettingsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  maxExamples: z.number().int().min(1).max(MAX_FEW_SHOT_EXAMPLES).default(3),
  tokenBudget: z.number().int().min(50).max(MAX_FEW_SHOT_TOKENS).default(600),
});
export type FewShotSettings = z.infer<typeof FewShotSettingsSchema>;

export const CatalogSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  version: z.string().min(1),
  description: z.string().optional(),
  targetType: z.string().optional(),
  passingThreshold: z.number().min(0).max(1).default(DEFAULT_PASSING_THRESHOLD),
  statusRules: StatusRulesSchema.optional(),
  instructions: z.string().optional(),
  fewShot: FewShotSettingsSchema.optional(),
  /** Probability-weighted scores where the model server gives token log-probabilities. */
  weightedScores: z.boolean().optional(),
  /** Written by `calibrate --apply`. */
  calibration: ThresholdCalibrationSchema.optional(),
  criteria: z.array(CriterionSchema),
  source: z.string().optional(),
  /** `id@version` when the registry supplied this catalog. */
  registryVersion: z.string().optional(),
  warnings: z.array(z.string()).default([]),
});
export type Catalog = z.infer<typeof CatalogSchema>;
export type CatalogInput = z.input<typeof CatalogSchema>;

export function levelsOf(method: Method): Level[] | undefined {
  return "levels" in method ? method.levels : undefined;
}

export function nativeScaleOf(method: Method): Scale {
  return method.kind === "score" ? method.scale : UNIT_SCALE;
}
