import { z } from "zod";
import { type CatalogInput, type CriterionInput, LevelSchema, type Method } from "../model.js";
import {
  type CatalogForm,
  firstCriterion,
  renameRoot,
  ThresholdSchema,
  VersionSchema,
} from "./common.js";

const ScoringMethodSchema = z
  .strictObject({
    type: z
      .string()
      .transform((t) => t.toLowerCase())
      .pipe(
        z.enum(["deterministic", "schema", "llm_decode"], {
          error: (issue) =>
            `unknown scoring_method type ${JSON.stringify(issue.input)}: expected deterministic, schema or llm_decode`,
        }),
      ),
    function_ref: z.string().min(1).nullable().optional(),
    schema_ref: z.string().min(1).nullable().optional(),
    schema: z.record(z.string(), z.unknown()).nullable().optional(),
    decode_prompt: z.string().nullable().optional(),
    decode_output_schema: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .superRefine((m, ctx) => {
    if (m.type === "deterministic" && !m.function_ref) {
      ctx.addIssue({
        code: "custom",
        path: ["function_ref"],
        message: "a deterministic scoring method needs a function_ref (module:function)",
      });
    }
    if (m.type === "schema" && !m.schema && !m.schema_ref) {
      ctx.addIssue({
        code: "custom",
        path: ["schema"],
        message: "a schema scoring method needs an inline schema or a schema_ref",
      });
    }
  });

const RubricCriterionSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().min(1),
  weight: z.number().min(0),
  levels: z.array(LevelSchema).min(2),
  scoring_method: ScoringMethodSchema,
  required: z.boolean().default(true),
  critical: z.boolean().optional(),
  passing_threshold: ThresholdSchema.optional(),
});

const RubricSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  version: VersionSchema,
  target_type: z.string().optional(),
  criteria: z.array(RubricCriterionSchema),
  pass_threshold: ThresholdSchema,
  metadata: z.record(z.string(), z.unknown()).optional(),
});
type Rubric = z.infer<typeof RubricSchema>;
type RubricCriterion = z.infer<typeof RubricCriterionSchema>;

function methodOf(c: RubricCriterion): Method {
  const m = c.scoring_method;
  switch (m.type) {
    case "deterministic":
      return { kind: "function", name: m.function_ref ?? "", levels: c.levels };
    case "schema":
      return {
        kind: "schema",
        schema: m.schema ?? undefined,
        schemaRef: m.schema_ref ?? undefined,
        levels: c.levels,
      };
    case "llm_decode":
      return {
        kind: "levels",
        levels: c.levels,
        decodePrompt: m.decode_prompt ?? undefined,
        decodeOutputSchema: m.decode_output_schema ?? undefined,
      };
  }
}

/** A method's fields as a rubric's `scoring_method` writes them (levels stay on the criterion). */
const SCORING_METHOD_FIELDS: Readonly<Record<string, string>> = {
  name: "function_ref",
  schema: "schema",
  schemaRef: "schema_ref",
  decodePrompt: "decode_prompt",
  decodeOutputSchema: "decode_output_schema",
};

export const rubricForm: CatalogForm<Rubric> = {
  label: "a levels rubric",
  matches(value) {
    const first = firstCriterion(value);
    return (
      Object.hasOwn(value, "pass_threshold") ||
      Object.hasOwn(value, "target_type") ||
      (first !== undefined &&
        (Object.hasOwn(first, "levels") || Object.hasOwn(first, "scoring_method")))
    );
  },
  schema: RubricSchema,
  rawPath(path) {
    const [head, index, field, ...rest] = path;
    const [methodField, ...inside] = rest;
    const written =
      typeof methodField === "string" ? SCORING_METHOD_FIELDS[methodField] : undefined;
    if (head === "criteria" && field === "method" && written !== undefined) {
      return ["criteria", index ?? 0, "scoring_method", written, ...inside];
    }
    if (head === "criteria" && field === "method") return ["criteria", index ?? 0, ...rest];
    if (head === "criteria" && field === "title") return ["criteria", index ?? 0, "name"];
    return renameRoot(path, { passingThreshold: ["pass_threshold"] });
  },
  toCatalog(raw, context): CatalogInput {
    return {
      id: raw.id ?? context.fallbackId,
      name: raw.name,
      version: raw.version,
      description: raw.description,
      targetType: raw.target_type,
      passingThreshold: raw.pass_threshold,
      criteria: raw.criteria.map(
        (c): CriterionInput => ({
          id: c.id,
          title: c.name,
          description: c.description,
          weight: c.weight,
          required: c.required,
          critical: c.critical ?? false,
          passingThreshold: c.passing_threshold,
          method: methodOf(c),
        }),
      ),
    };
  },
};
