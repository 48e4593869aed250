/** The forms of weighted, scored criteria: evaluation-criteria JSON and funding catalogs. */
import { z } from "zod";
import {
  type CatalogInput,
  type CriterionInput,
  FewShotSettingsSchema,
  FIVE_POINT_SCALE,
  MAX_FEW_SHOT_EXAMPLES,
  MAX_FEW_SHOT_TOKENS,
  ScaleSchema,
  ScoringGuidelinesSchema,
  StatusRulesSchema,
  UNIT_SCALE,
} from "../model.js";
import { OutOfRangeSchema } from "../outOfRange.js";
import {
  type CatalogForm,
  firstCriterion,
  renameRoot,
  ThresholdSchema,
  VersionSchema,
} from "./common.js";

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

/**
 * A funding criteria catalog (TOON): `meta{…}:` and `criteria[N,]{id,type,weight,title,prompt}:`;
 * `check` criteria are knockouts, `score` criteria are rated 1–5.
 */
const FundingCatalogMetaSchema = z.strictObject({
  id: z.string().min(1).optional(),
  version: VersionSchema,
  program: z.string().min(1),
  description: z.string().optional(),
  passing_threshold: ThresholdSchema.optional(),
  // Above 1: a threshold of 1 on the 1–5 scale is reached by the worst total.
  fundable_threshold: z.number().gt(1).max(5).optional(),
  reject_below: z.number().min(1).max(5).optional(),
  few_shot: z.boolean().optional(),
  few_shot_examples: z.number().int().min(1).max(MAX_FEW_SHOT_EXAMPLES).optional(),
  few_shot_tokens: z.number().int().min(50).max(MAX_FEW_SHOT_TOKENS).optional(),
  weighted_scores: z.boolean().optional(),
  out_of_range: z.enum(["error", "clamp"]).optional(),
});

type FundingCatalogMeta = z.infer<typeof FundingCatalogMetaSchema>;

function fewShotOf(meta: FundingCatalogMeta): CatalogInput["fewShot"] {
  const { few_shot: enabled, few_shot_examples: maxExamples, few_shot_tokens: tokenBudget } = meta;
  if (enabled === undefined && maxExamples === undefined && tokenBudget === undefined) {
    return undefined;
  }
  return { enabled: enabled ?? false, maxExamples, tokenBudget };
}

const FundingCatalogCriterionSchema = z.strictObject({
  id: z.string().min(1),
  type: z.enum(["check", "score"], {
    error: (issue) =>
      issue.input === undefined
        ? "missing the criterion's type: expected check or score"
        : `unknown criterion type ${JSON.stringify(issue.input)}: expected check or score`,
  }),
  weight: z.number().min(0),
  title: z.string().min(1),
  prompt: z.string().min(1),
  citation: z.string().nullable().optional(),
});

const FundingCatalogFileSchema = z.strictObject({
  meta: FundingCatalogMetaSchema,
  criteria: z.array(FundingCatalogCriterionSchema),
});
type FundingCatalogFile = z.infer<typeof FundingCatalogFileSchema>;

export const fundingCatalogForm: CatalogForm<FundingCatalogFile> = {
  label: "a funding criteria catalog",
  matches(value) {
    const first = firstCriterion(value);
    return Object.hasOwn(value, "meta") || (first !== undefined && Object.hasOwn(first, "prompt"));
  },
  schema: FundingCatalogFileSchema,
  rawPath(path) {
    const [head, index, field] = path;
    if (head === "criteria") {
      const column = field === "description" ? "prompt" : field === "method" ? "type" : field;
      return column === undefined ? ["criteria", index ?? 0] : ["criteria", index ?? 0, column];
    }
    if (head === "statusRules") {
      return ["meta", index === "rejectBelow" ? "reject_below" : "fundable_threshold"];
    }
    return renameRoot(path.slice(0, 1), {
      passingThreshold: ["meta", "passing_threshold"],
      id: ["meta", "id"],
      version: ["meta", "version"],
      name: ["meta", "program"],
      fewShot: ["meta", "few_shot"],
      weightedScores: ["meta", "weighted_scores"],
    });
  },
  toCatalog(raw, context): CatalogInput {
    const { meta } = raw;
    const fundable = meta.fundable_threshold ?? 4.0;
    const fewShot = fewShotOf(meta);
    return {
      id: meta.id ?? context.fallbackId,
      name: meta.program,
      version: meta.version,
      description: meta.description,
      // A score criterion counts as met at the fundable level: 4 on 1–5 is 0.75.
      passingThreshold: meta.passing_threshold ?? (fundable - 1) / 4,
      statusRules: {
        scale: FIVE_POINT_SCALE,
        fundable,
        rejectBelow: meta.reject_below,
      },
      ...(fewShot === undefined ? {} : { fewShot }),
      ...(meta.weighted_scores === undefined ? {} : { weightedScores: meta.weighted_scores }),
      criteria: raw.criteria.map(
        (c): CriterionInput => ({
          id: c.id,
          title: c.title,
          description: c.prompt,
          weight: c.weight,
          critical: c.type === "check",
          knockout: c.type === "check",
          citation: c.citation ?? undefined,
          method:
            c.type === "check"
              ? { kind: "check" }
              : {
                  kind: "score",
                  scale: FIVE_POINT_SCALE,
                  ...(meta.out_of_range === undefined ? {} : { outOfRange: meta.out_of_range }),
                },
        }),
      ),
    };
  },
};
