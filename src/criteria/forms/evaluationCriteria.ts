import { z } from "zod";
import {
  type CatalogInput,
  type CriterionInput,
  FewShotSettingsSchema,
  ScaleSchema,
  ScoringGuidelinesSchema,
  StatusRulesSchema,
  UNIT_SCALE,
} from "../model.js";
import { OutOfRangeSchema } from "../outOfRange.js";
import { type CatalogForm, firstCriterion, ThresholdSchema, VersionSchema } from "./common.js";

/** An evaluation-criteria JSON file: weights, isCritical, per-criterion thresholds, five bands. */
const EvaluationCriteriaCriterionSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().min(1),
  weight: z.number().min(0),
  isCritical: z.boolean().default(false),
  passingThreshold: ThresholdSchema.optional(),
  scoringGuidelines: ScoringGuidelinesSchema.optional(),
  scale: ScaleSchema.optional(),
  /** Default: the file's, else "error". */
  outOfRange: OutOfRangeSchema.optional(),
  citation: z.string().optional(),
});

const EvaluationCriteriaFileSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  version: VersionSchema,
  description: z.string().optional(),
  targetType: z.string().optional(),
  instructions: z.string().optional(),
  passingThreshold: ThresholdSchema.optional(),
  statusRules: StatusRulesSchema.optional(),
  fewShot: FewShotSettingsSchema.optional(),
  weightedScores: z.boolean().optional(),
  outOfRange: OutOfRangeSchema.optional(),
  criteria: z.array(EvaluationCriteriaCriterionSchema),
});
type EvaluationCriteriaFile = z.infer<typeof EvaluationCriteriaFileSchema>;

export const evaluationCriteriaForm: CatalogForm<EvaluationCriteriaFile> = {
  label: "an evaluation-criteria JSON file",
  matches(value) {
    const first = firstCriterion(value);
    return (
      first !== undefined &&
      (Object.hasOwn(first, "scoringGuidelines") ||
        Object.hasOwn(first, "isCritical") ||
        Object.hasOwn(first, "name"))
    );
  },
  schema: EvaluationCriteriaFileSchema,
  rawPath(path) {
    const [head, index, field, sub, ...rest] = path;
    if (head !== "criteria" || index === undefined) return path;
    if (field === "title") return ["criteria", index, "name"];
    if (field === "critical") return ["criteria", index, "isCritical"];
    if (field === "method" && sub === "guidelines")
      return ["criteria", index, "scoringGuidelines", ...rest];
    if (field === "method" && sub === "outOfRange") return ["criteria", index, "outOfRange"];
    if (field === "method") return ["criteria", index, "scale"];
    return path;
  },
  toCatalog(raw, context): CatalogInput {
    return {
      id: raw.id ?? context.fallbackId,
      name: raw.name,
      version: raw.version,
      description: raw.description,
      targetType: raw.targetType,
      instructions: raw.instructions,
      passingThreshold: raw.passingThreshold,
      statusRules: raw.statusRules,
      ...(raw.fewShot === undefined ? {} : { fewShot: raw.fewShot }),
      ...(raw.weightedScores === undefined ? {} : { weightedScores: raw.weightedScores }),
      criteria: raw.criteria.map((c): CriterionInput => {
        const outOfRange = c.outOfRange ?? raw.outOfRange;
        return {
          id: c.id,
          title: c.name,
          description: c.description,
          weight: c.weight,
          critical: c.isCritical,
          passingThreshold: c.passingThreshold,
          citation: c.citation,
          method: {
            kind: "score",
            scale: c.scale ?? UNIT_SCALE,
            guidelines: c.scoringGuidelines,
            ...(outOfRange === undefined ? {} : { outOfRange }),
          },
        };
      }),
    };
  },
};
