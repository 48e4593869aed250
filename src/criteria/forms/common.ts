import { z } from "zod";
import type { CatalogPath } from "../errors.js";
import type { CatalogInput } from "../model.js";

/** What a form converter knows besides the decoded value. */
export interface FormContext {
  /** Catalog id to use when the text names none (the file's base name). */
  fallbackId: string;
}

/** A catalog form: recognises its shape in a decoded value, validates it, and normalises it. */
export interface CatalogForm<Raw> {
  /** Short name used in messages, e.g. "an evaluation-criteria JSON file". */
  readonly label: string;
  /** Whether the decoded value looks like this form (decides which schema reports errors). */
  matches(value: Record<string, unknown>): boolean;
  readonly schema: z.ZodType<Raw>;
  toCatalog(raw: Raw, context: FormContext): CatalogInput;
  /**
   * Where a path of the normalised catalog (e.g. ["criteria", 2, "method", "levels"]) sits in this
   * form's own text, so that meta-rubric findings point at the right line.
   */
  rawPath?(path: CatalogPath): CatalogPath;
}

/** Renames the first segment of a path (e.g. "criteria" → "points"); used by rawPath. */
export function renameRoot(
  path: CatalogPath,
  names: Readonly<Record<string, CatalogPath>>,
): CatalogPath {
  const [head, ...rest] = path;
  if (typeof head !== "string") return path;
  const renamed = names[head];
  return renamed === undefined ? path : [...renamed, ...rest];
}

/** Versions are strings; a bare number such as 1 or 1.5 is accepted and written as text. */
export const VersionSchema = z.union([z.string().min(1), z.number()]).transform(String);

export const ThresholdSchema = z.number().min(0).max(1);

/** A readable title from a longer text: the first ~8 words. */
export function titleFrom(text: string): string {
  const words = text.trim().split(/\s+/);
  const head = words.slice(0, 8).join(" ");
  return words.length > 8 ? `${head}…` : head;
}

export function hasKey(value: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(value, key);
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
