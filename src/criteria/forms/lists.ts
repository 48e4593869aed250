/** The forms that are lists of items: a points list and rubric items. */
import { z } from "zod";
import type { CatalogInput, CriterionInput } from "../model.js";
import {
  type CatalogForm,
  type FormContext,
  kindOf,
  renameRoot,
  ThresholdSchema,
  titleFrom,
  VersionSchema,
} from "./common.js";

const MULTIPLIER = "a multiplier must be a number ≥ 0";

/** A point: a string (LLM-judged), a `["fn", arg]` tuple, or an object with `text` or `fn`. */
const PointObjectSchema = z
  .strictObject({
    id: z.string().min(1).optional(),
    text: z.string().min(1).optional(),
    fn: z.string().min(1).optional(),
    fnArgs: z.unknown().optional(),
    multiplier: z.number({ error: MULTIPLIER }).min(0, { error: MULTIPLIER }).default(1),
    citation: z.string().optional(),
    required: z.boolean().optional(),
  })
  .refine((p) => (p.text === undefined) !== (p.fn === undefined), {
    message: "a point object needs exactly one of `text` (LLM-judged) or `fn` (function)",
  });

const PointTupleSchema = z.tuple([z.string().min(1)], z.unknown());

/** An object is a point object: its own first problem is the one to show. */
function objectProblem(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== "invalid_union" || kindOf(issue.input) !== "an object") return undefined;
  const [first] = issue.errors.at(-1) ?? [];
  if (first === undefined) return undefined;
  return first.path.length === 0 ? first.message : `${first.path.join(".")}: ${first.message}`;
}

const PointDefinitionSchema = z.union([z.string().min(1), PointTupleSchema, PointObjectSchema], {
  error: (issue) =>
    objectProblem(issue) ??
    `expected a point: a text, a ["function", args] list or an object with text or fn, got ${kindOf(issue.input)}`,
});
type PointDefinition = z.infer<typeof PointDefinitionSchema>;

/** What both list forms take besides their items: a list needs no name or version. */
const LIST_HEADER = {
  id: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  version: VersionSchema.optional(),
  description: z.string().optional(),
  passingThreshold: ThresholdSchema.optional(),
};

function listHeader(raw: z.infer<z.ZodObject<typeof LIST_HEADER>>, context: FormContext) {
  const id = raw.id ?? context.fallbackId;
  const { description, passingThreshold } = raw;
  return { id, name: raw.name ?? id, version: raw.version ?? "1", description, passingThreshold };
}

const PointsCatalogSchema = z.strictObject({
  ...LIST_HEADER,
  targetType: z.string().optional(),
  instructions: z.string().optional(),
  points: z.array(PointDefinitionSchema),
});
type PointsCatalog = z.infer<typeof PointsCatalogSchema>;

/** A string or a `["fn", ...args]` tuple as the point object it stands for. */
function asPointObject(point: PointDefinition): z.infer<typeof PointObjectSchema> {
  if (typeof point === "string") return { text: point, multiplier: 1 };
  if (!Array.isArray(point)) return point;
  const [fn, ...rest] = point;
  return { fn, fnArgs: rest.length <= 1 ? rest[0] : rest, multiplier: 1 };
}

function pointToCriterion(definition: PointDefinition, index: number): CriterionInput {
  const point = asPointObject(definition);
  const common = {
    id: point.id ?? `p${index + 1}`,
    weight: point.multiplier,
    citation: point.citation,
    required: point.required,
  };
  if (point.fn !== undefined) {
    const args = point.fnArgs;
    const call = args === undefined ? `${point.fn}()` : `${point.fn}(${JSON.stringify(args)})`;
    return {
      ...common,
      title: `Function: ${call}`,
      description: `The response satisfies ${call}.`,
      method: { kind: "function", name: point.fn, args },
    };
  }
  const text = point.text ?? "";
  return {
    ...common,
    title: titleFrom(text),
    description: text,
    method: { kind: "point", text },
  };
}

export const pointsForm: CatalogForm<PointsCatalog> = {
  label: "a points list",
  matches: (value) => Object.hasOwn(value, "points"),
  rawPath: (path) => renameRoot(path.slice(0, 2), { criteria: ["points"] }),
  schema: PointsCatalogSchema,
  toCatalog(raw, context): CatalogInput {
    return {
      ...listHeader(raw, context),
      targetType: raw.targetType,
      instructions: raw.instructions,
      criteria: raw.points.map(pointToCriterion),
    };
  },
};

/** A required item that is not met fails the verdict: a critical criterion. */
const RubricItemSchema = z.strictObject({
  id: z.string().min(1),
  expected_outcome: z.string().min(1),
  weight: z.number().min(0).default(1),
  required: z.boolean().default(false),
  title: z.string().min(1).optional(),
});

const RubricItemsCatalogSchema = z.strictObject({
  ...LIST_HEADER,
  question: z.string().optional(),
  reference_answer: z.string().optional(),
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
      ...listHeader(raw, context),
      instructions: instructions === "" ? undefined : instructions,
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
