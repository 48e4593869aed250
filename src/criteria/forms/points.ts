import { z } from "zod";
import type { CatalogInput, CriterionInput } from "../model.js";
import {
  type CatalogForm,
  renameRoot,
  ThresholdSchema,
  titleFrom,
  VersionSchema,
} from "./common.js";

/** A point: a string (LLM-judged), a `["fn", arg]` tuple, or an object with `text` or `fn`. */
const PointObjectSchema = z
  .strictObject({
    id: z.string().min(1).optional(),
    text: z.string().min(1).optional(),
    fn: z.string().min(1).optional(),
    fnArgs: z.unknown().optional(),
    multiplier: z.number().min(0).default(1),
    citation: z.string().optional(),
    required: z.boolean().optional(),
  })
  .refine((p) => (p.text === undefined) !== (p.fn === undefined), {
    message: "a point object needs exactly one of `text` (LLM-judged) or `fn` (function)",
  });

const PointTupleSchema = z.tuple([z.string().min(1)], z.unknown());

const PointDefinitionSchema = z.union([z.string().min(1), PointTupleSchema, PointObjectSchema]);
type PointDefinition = z.infer<typeof PointDefinitionSchema>;

const PointsCatalogSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  version: VersionSchema.optional(),
  description: z.string().optional(),
  targetType: z.string().optional(),
  instructions: z.string().optional(),
  passingThreshold: ThresholdSchema.optional(),
  points: z.array(PointDefinitionSchema),
});
type PointsCatalog = z.infer<typeof PointsCatalogSchema>;

function describeCall(name: string, args: unknown): string {
  return args === undefined ? `${name}()` : `${name}(${JSON.stringify(args)})`;
}

function pointToCriterion(point: PointDefinition, index: number): CriterionInput {
  const id = `p${index + 1}`;
  if (typeof point === "string") {
    return {
      id,
      title: titleFrom(point),
      description: point,
      weight: 1,
      method: { kind: "point", text: point },
    };
  }
  if (Array.isArray(point)) {
    const [name, ...rest] = point;
    const args = rest.length <= 1 ? rest[0] : rest;
    return {
      id,
      title: `Function: ${describeCall(name, args)}`,
      description: `The response satisfies ${describeCall(name, args)}.`,
      weight: 1,
      method: { kind: "function", name, args },
    };
  }
  const common = {
    id: point.id ?? id,
    weight: point.multiplier,
    citation: point.citation,
    required: point.required,
  };
  if (point.fn !== undefined) {
    return {
      ...common,
      title: `Function: ${describeCall(point.fn, point.fnArgs)}`,
      description: `The response satisfies ${describeCall(point.fn, point.fnArgs)}.`,
      method: { kind: "function", name: point.fn, args: point.fnArgs },
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
      id: raw.id ?? context.fallbackId,
      name: raw.name ?? raw.id ?? context.fallbackId,
      version: raw.version ?? "1",
      description: raw.description,
      targetType: raw.targetType,
      instructions: raw.instructions,
      passingThreshold: raw.passingThreshold,
      criteria: raw.points.map(pointToCriterion),
    };
  },
};
