import { z } from "zod";
import type { CatalogInput, CriterionInput } from "../model.js";
import {
  type CatalogForm,
  renameRoot,
  ThresholdSchema,
  titleFrom,
  VersionSchema,
} from "./common.js";

/** A required item that is not met fails the verdict: a critical criterion. */
const RubricItemSchema = z.strictObject({
  id: z.string().min(1),
  expected_outcome: z.string().min(1),
  weight: z.number().min(0).default(1),
  required: z.boolean().default(false),
  title: z.string().min(1).optional(),
});

const RubricItemsCatalogSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  version: VersionSchema.optional(),
  description: z.string().optional(),
  question: z.string().optional(),
  reference_answer: z.string().optional(),
  passingThreshold: ThresholdSchema.optional(),
  rubrics: z.array(RubricItemSchema),
});
type RubricItemsCatalog = z.infer<typeof RubricItemsCatalogSchema>;

export const rubricItemsForm: CatalogForm<RubricItemsCatalog> = {
  label: "rubric items",
  matches(value) {
    return Array.isArray(value.rubrics);
  },
  schema: RubricItemsCatalogSchema,
  rawPath: (path) => renameRoot(path.slice(0, 2), { criteria: ["rubrics"] }),
  toCatalog(raw, context): CatalogInput {
    const instructions = [
      raw.question === undefined ? undefined : `Question: ${raw.question}`,
      raw.reference_answer === undefined ? undefined : `Reference answer: ${raw.reference_answer}`,
    ]
      .filter((line) => line !== undefined)
      .join("\n");
    return {
      id: raw.id ?? context.fallbackId,
      name: raw.name ?? raw.id ?? context.fallbackId,
      version: raw.version ?? "1",
      description: raw.description,
      instructions: instructions === "" ? undefined : instructions,
      passingThreshold: raw.passingThreshold,
      criteria: raw.rubrics.map(
        (item): CriterionInput => ({
          id: item.id,
          title: item.title ?? titleFrom(item.expected_outcome),
          description: item.expected_outcome,
          weight: item.weight,
          critical: item.required,
          method: { kind: "check", expectedOutcome: item.expected_outcome },
        }),
      ),
    };
  },
};
