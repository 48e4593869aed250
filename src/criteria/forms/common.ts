import { z } from "zod";
import type { CatalogPath } from "../errors.js";
import type { CatalogInput } from "../model.js";

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
