import { z } from "zod";
import { isRecord } from "../../untrusted/json.js";
import type { CatalogPath } from "../errors.js";
import { type CatalogInput, CatalogSchema } from "../model.js";

export interface FormContext {
  fallbackId: string;
}

export interface CatalogForm<Raw> {
  readonly label: string;
  /** Decides which schema reports errors. */
  matches(value: Record<string, unknown>): boolean;
  readonly schema: z.ZodType<Raw>;
  toCatalog(raw: Raw, context: FormContext): CatalogInput;
  /** Where a normalised catalog path sits in this form's text, so findings name the right line. */
  rawPath?(path: CatalogPath): CatalogPath;
}

export function renameRoot(
  path: CatalogPath,
  names: Readonly<Record<string, CatalogPath>>,
): CatalogPath {
  const [head, ...rest] = path;
  if (typeof head !== "string") return path;
  const renamed = names[head];
  return renamed === undefined ? path : [...renamed, ...rest];
}

export const VersionSchema = z
  .union([z.string().min(1), z.number()], {
    error: (issue) => `expected the version as text or a number, got ${kindOf(issue.input)}`,
  })
  .transform(String);

/** "a number", "a list", "null": what a value is, in a message. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

export const ThresholdSchema = z.number().min(0).max(1);

export function titleFrom(text: string): string {
  const words = text.trim().split(/\s+/);
  const head = words.slice(0, 8).join(" ");
  return words.length > 8 ? `${head}…` : head;
}

export function firstCriterion(
  value: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const criteria = value.criteria;
  if (!Array.isArray(criteria)) return undefined;
  const first: unknown = criteria[0];
  return typeof first === "object" && first !== null && !Array.isArray(first)
    ? (first as Record<string, unknown>)
    : undefined;
}

/**
 * The first key of `input` a schema dropped from its `output`: a key the form does not know, a
 * typo (`critcal`) that would otherwise be ignored without a word.
 */
export function firstDroppedKey(input: unknown, output: unknown): CatalogPath | undefined {
  const stack: Array<{ input: unknown; output: unknown; path: CatalogPath }> = [
    { input, output, path: [] },
  ];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (Array.isArray(next.input) && Array.isArray(next.output)) {
      for (let i = next.input.length - 1; i >= 0; i--) {
        stack.push({ input: next.input[i], output: next.output[i], path: [...next.path, i] });
      }
    } else if (isRecord(next.input) && isRecord(next.output)) {
      const keys = Object.keys(next.input);
      const dropped = keys.find((key) => !Object.hasOwn(next.output as object, key));
      if (dropped !== undefined) return [...next.path, dropped];
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({
          input: next.input[key],
          output: (next.output as Record<string, unknown>)[key],
          path: [...next.path, key],
        });
      }
    }
  }
  return undefined;
}

/** evalgate's own catalog model, written as JSON or TOON (what `catalog convert` produces). */
const NativeCatalogSchema = CatalogSchema.extend({
  id: z.string().min(1).optional(),
  version: VersionSchema,
});
type NativeCatalog = z.infer<typeof NativeCatalogSchema>;

export const nativeForm: CatalogForm<NativeCatalog> = {
  label: "an evalgate catalog",
  matches(value) {
    const first = firstCriterion(value);
    return first !== undefined && Object.hasOwn(first, "method");
  },
  schema: NativeCatalogSchema,
  toCatalog(raw, context): CatalogInput {
    const { source: _source, warnings: _warnings, ...catalog } = raw;
    return { ...catalog, id: raw.id ?? context.fallbackId };
  },
};
