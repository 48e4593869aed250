import type { z } from "zod";
import { isRecord } from "../untrusted/json.js";
import { CatalogError, type CatalogPath } from "./errors.js";
import { type CatalogForm, type FormContext, firstDroppedKey, nativeForm } from "./forms/common.js";
import { pointsForm, rubricItemsForm } from "./forms/lists.js";
import { rubricForm } from "./forms/rubric.js";
import { evaluationCriteriaForm, fundingCatalogForm } from "./forms/weighted.js";
import { misspelledKey, valueAt } from "./misspelledKey.js";
import { type Catalog, CatalogSchema } from "./model.js";
import { type LocatedValue, readJson, readToon } from "./sourceText.js";
import { decideCatalog, type ValidationFinding } from "./validate.js";

export type CatalogFormat = "json" | "toon";

export interface ParseCatalogOptions {
  format: CatalogFormat;
  source?: string;
  /** Catalog id when the text names none (the file's base name). */
  fallbackId?: string;
  /**
   * The meta-rubric's findings on the catalog as written (before an error is thrown), each at the
   * path and line of the file's own keys.
   */
  onFindings?: (findings: readonly ValidationFinding[]) => void;
}

/** Tried in this order: the most specific shapes first. */
const FORMS = [
  nativeForm,
  rubricForm,
  rubricItemsForm,
  pointsForm,
  fundingCatalogForm,
  evaluationCriteriaForm,
];

function describeForms(): string {
  return FORMS.map((f) => f.label).join(", ");
}

function pickForm(value: Record<string, unknown>): CatalogForm<unknown> | undefined {
  const form = FORMS.find((f) => f.matches(value));
  if (form !== undefined) return form as CatalogForm<unknown>;
  // A catalog with `criteria` but no recognisable criterion is reported against the default form.
  return "criteria" in value ? (evaluationCriteriaForm as CatalogForm<unknown>) : undefined;
}

function issueError(
  issues: readonly z.core.$ZodIssue[],
  located: LocatedValue,
  source: string,
  label: string,
  toRaw?: (path: CatalogPath) => CatalogPath,
): CatalogError {
  const typo = toRaw === undefined ? misspelledKey(issues, located.value) : undefined;
  if (typo !== undefined) {
    const path = [...typo.path, typo.written];
    const detail = `unknown key ${JSON.stringify(typo.written)}: did you mean ${JSON.stringify(typo.meant)}? — as ${label}`;
    return new CatalogError(detail, { source, line: located.lineOf(path), path });
  }
  const [first, ...rest] = issues;
  const issuePath = (first?.path ?? []).map((p) => (typeof p === "symbol" ? String(p) : p));
  // An unknown key is best shown on its own line.
  const unknownKey = first?.code === "unrecognized_keys" ? first.keys[0] : undefined;
  const written = unknownKey === undefined ? issuePath : [...issuePath, unknownKey];
  const path = toRaw === undefined ? written : toRaw(written);
  const more =
    rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? "s" : ""})` : "";
  const problem =
    unknownKey !== undefined
      ? `unknown key ${JSON.stringify(unknownKey)}`
      : first?.code === "invalid_type" && toRaw === undefined && isAbsent(located.value, written)
        ? `missing ${JSON.stringify(written.at(-1))}: expected ${first.expected}`
        : first?.message;
  const detail = `${problem ?? "invalid catalog"} — as ${label}${more}`;
  return new CatalogError(detail, { source, line: located.lineOf(path), path });
}

/** Whether the key at the end of `path` is not written in its object. */
function isAbsent(value: unknown, path: CatalogPath): boolean {
  const key = path.at(-1);
  const parent = valueAt(value, path.slice(0, -1));
  return typeof key === "string" && isRecord(parent) && !Object.hasOwn(parent, key);
}

export interface LocatedCatalog {
  catalog: Catalog;
  locate(path: CatalogPath): { path: CatalogPath; line: number | undefined };
}

/**
 * Parses a catalog text in any supported form into one `Catalog`, through the meta-rubric (an
 * error throws a `CatalogError` with the line and path).
 *
 * @example
 * const catalog = parseCatalog(await readFile(path, "utf8"), { format: "toon", source: path });
 */
export function parseCatalog(text: string, options: ParseCatalogOptions): Catalog {
  return parseLocatedCatalog(text, options).catalog;
}

export function parseLocatedCatalog(text: string, options: ParseCatalogOptions): LocatedCatalog {
  const source = options.source ?? "<input>";
  const located = options.format === "json" ? readJson(text, source) : readToon(text, source);
  return catalogOfLocatedValue(located, {
    source,
    fallbackId: options.fallbackId,
    onFindings: options.onFindings,
  });
}

/** For a value already decoded (one catalog inside a larger file). */
export function catalogOfLocatedValue(
  located: LocatedValue,
  options: {
    source: string;
    fallbackId?: string | undefined;
    metaChecks?: boolean;
    onFindings?: ParseCatalogOptions["onFindings"];
  },
): LocatedCatalog {
  const { source } = options;
  const { value } = located;
  if (!isRecord(value)) {
    throw new CatalogError(
      `expected a catalog object (one of: ${describeForms()}), got ${Array.isArray(value) ? "a list" : typeof value}`,
      { source, line: 1 },
    );
  }
  const form = pickForm(value);
  if (form === undefined) {
    throw new CatalogError(
      `not a criteria catalog: expected \`criteria\`, \`points\` or \`rubrics\` (one of: ${describeForms()})`,
      { source, line: 1 },
    );
  }
  const raw = form.schema.safeParse(value);
  if (!raw.success) throw issueError(raw.error.issues, located, source, form.label);
  const unknownKey = firstDroppedKey(value, raw.data);
  if (unknownKey !== undefined) {
    throw new CatalogError(`unknown key ${JSON.stringify(unknownKey.at(-1))} — as ${form.label}`, {
      source,
      line: located.lineOf(unknownKey),
      path: unknownKey,
    });
  }

  const context: FormContext = { fallbackId: options.fallbackId ?? "catalog" };
  const toRaw = (path: CatalogPath): CatalogPath => form.rawPath?.(path) ?? path;
  const locate = (path: CatalogPath) => ({ path: toRaw(path), line: located.lineOf(toRaw(path)) });
  const normalised = CatalogSchema.safeParse({ ...form.toCatalog(raw.data, context), source });
  if (!normalised.success) {
    throw issueError(normalised.error.issues, located, source, form.label, toRaw);
  }

  const catalog = normalised.data;
  if (options.metaChecks === false) return { catalog, locate };
  const decision = decideCatalog(catalog);
  options.onFindings?.(
    decision.findings.map((finding) => ({ ...finding, ...locate(finding.path) })),
  );
  if (decision.refusal !== undefined) {
    const { message, path } = decision.refusal;
    throw new CatalogError(message, { source, ...locate(path) });
  }
  return { catalog: decision.catalog, locate };
}
