/**
 * The structured contents of the proposal graph (research, solution sought, connection pairs) as
 * zod schemas, and the one rule for changing them: a required field can be neither emptied nor left
 * out; an object's edit changes the fields it gives (null or empty removes one) and keeps the rest;
 * a wrong type is refused, not turned into text. Fields beyond the known ones are kept.
 */
import { z } from "zod";
import { isRecord } from "../untrusted/json.js";
import type { StageDefinition } from "./stages.js";

export interface ContentFieldDefinition {
  key: string;
  /** text: one piece of text (line breaks allowed); list: a list of one-line items. */
  kind: "text" | "list";
  required?: boolean;
}

/** What is wrong with a content or an edit, and where: `[key]`, `[item, key]`, or `[]`. */
export interface ContentIssue {
  path: Array<string | number>;
  message: string;
}

function kindOfValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "true or false";
  return typeof value;
}

const REQUIRED = "is required: it cannot be left out or emptied";

const TextField = z
  .string({
    error: (issue) =>
      issue.input === undefined ? REQUIRED : `takes text, not ${kindOfValue(issue.input)}`,
  })
  .trim()
  .min(1, REQUIRED);

/** Text items, at least one, each trimmed; blank items are left out. */
const ListField = z
  .array(
    z.string({ error: (issue) => `each item takes text, not ${kindOfValue(issue.input)}` }).trim(),
    {
      error: (issue) =>
        issue.input === undefined
          ? REQUIRED
          : `takes a list of text items, not ${kindOfValue(issue.input)}`,
    },
  )
  .transform((items) => items.filter((item) => item !== ""))
  .pipe(z.array(z.string()).min(1, REQUIRED));

function fieldSchema(field: ContentFieldDefinition) {
  const schema = field.kind === "list" ? ListField : TextField;
  return field.required === true ? schema : schema.optional();
}

function objectOf(fields: readonly ContentFieldDefinition[]) {
  return z.looseObject(Object.fromEntries(fields.map((f) => [f.key, fieldSchema(f)])));
}

function hasContent(value: Record<string, unknown>): boolean {
  return Object.values(value).some((v) => !isEmptyValue(v));
}

function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (isRecord(value)) return Object.keys(value).length === 0;
  return false;
}

export interface StructuredContentType {
  /** What a message calls it: "the research", "the connection pairs". */
  name: string;
  shape: "object" | "list";
  fields: readonly ContentFieldDefinition[];
  /** What one item of a list is called ("Pair"). */
  itemName?: string;
  schema: z.ZodType<Record<string, unknown> | Array<Record<string, unknown>>>;
}

function objectContent(
  name: string,
  fields: readonly ContentFieldDefinition[],
): StructuredContentType {
  return { name, shape: "object", fields, schema: objectOf(fields) };
}

/** The research on the funder and the RFP (prompts/generation/researchPrompt.ts). */
export const RESEARCH_CONTENT = objectContent("the research", [
  { key: "funder", kind: "text", required: true },
  { key: "mission", kind: "text" },
  { key: "applicant", kind: "text" },
  { key: "project", kind: "text" },
  { key: "priorities", kind: "list", required: true },
  { key: "eligibility", kind: "list" },
  { key: "evaluationCriteria", kind: "list" },
  { key: "fundingRange", kind: "text" },
  { key: "requiredSections", kind: "list" },
  { key: "deadlinesAndRules", kind: "list" },
  { key: "sources", kind: "list" },
]);

/** The solution the funder seeks (prompts/generation/solutionPrompt.ts). */
export const SOLUTION_CONTENT = objectContent("the solution sought", [
  { key: "problem", kind: "text", required: true },
  { key: "desiredOutcomes", kind: "list", required: true },
  { key: "preferredApproaches", kind: "list" },
  { key: "excludedApproaches", kind: "list" },
  { key: "successIndicators", kind: "list" },
  { key: "evidence", kind: "list" },
]);

const PAIR_STRENGTHS = ["strong", "moderate", "weak"] as const;

/** One connection pair's fields (prompts/generation/connectionPairsPrompt.ts). */
const CONNECTION_PAIR_FIELDS: readonly ContentFieldDefinition[] = [
  { key: "funderNeed", kind: "text", required: true },
  { key: "applicantCapability", kind: "text", required: true },
  { key: "evidence", kind: "text" },
  { key: "strength", kind: "text" },
];
/** A pair's fields as text, but its strength one of PAIR_STRENGTHS (any case). */
const ConnectionPairSchema = objectOf(CONNECTION_PAIR_FIELDS).extend({
  strength: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
    z.enum(PAIR_STRENGTHS, { error: `is one of ${PAIR_STRENGTHS.join(", ")}` }).optional(),
  ),
});
export const CONNECTION_PAIRS_CONTENT: StructuredContentType = {
  name: "the connection pairs",
  shape: "list",
  fields: CONNECTION_PAIR_FIELDS,
  itemName: "Pair",
  schema: z
    .array(ConnectionPairSchema, {
      error: (issue) => `takes a list of pairs, not ${kindOfValue(issue.input)}`,
    })
    .min(1, "there is no connection pair"),
};

const STRUCTURED_TYPES: Readonly<Record<string, StructuredContentType>> = {
  research: RESEARCH_CONTENT,
  solution: SOLUTION_CONTENT,
  connection_pairs: CONNECTION_PAIRS_CONTENT,
};

/** Any other object stage: an object with a field. */
const GENERIC_OBJECT: StructuredContentType = {
  name: "the content",
  shape: "object",
  fields: [],
  schema: z.record(z.string(), z.unknown()).refine(hasContent, "the object has no field"),
};
/** Any other list stage: a list of objects. */
const GENERIC_LIST: StructuredContentType = {
  name: "the content",
  shape: "list",
  fields: [],
  itemName: "Item",
  schema: z
    .array(z.record(z.string(), z.unknown(), { error: "each item must be a JSON object" }))
    .min(1, "the list is empty"),
};

/** The structured type of a stage's content; a generic object or list for other structured stages. */
export function structuredContentOf(
  stage: Pick<StageDefinition, "contentType" | "contentKind">,
): StructuredContentType | undefined {
  const known = STRUCTURED_TYPES[stage.contentType];
  if (known !== undefined) return known;
  if (stage.contentKind === "object") return GENERIC_OBJECT;
  if (stage.contentKind === "list") return GENERIC_LIST;
  return undefined;
}

export function withoutEmpty(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => !isEmptyValue(v)));
}

function issuesOf(error: z.ZodError): ContentIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.filter((p): p is string | number => typeof p !== "symbol"),
    message: issue.message,
  }));
}

/** A reviewer's edit applied by the rule above: the one check every way of editing goes through. */
export function applyContentEdit(
  type: StructuredContentType,
  current: unknown,
  edit: unknown,
): { ok: true; value: unknown } | { ok: false; issues: ContentIssue[] } {
  let merged: unknown;
  if (type.shape === "object") {
    if (!isRecord(edit)) {
      const issue = `${type.name} takes a JSON object of its fields, not ${kindOfValue(edit)}`;
      return { ok: false, issues: [{ path: [], message: issue }] };
    }
    merged = withoutEmpty({ ...(isRecord(current) ? current : {}), ...edit });
  } else {
    if (!Array.isArray(edit)) {
      const issue = `${type.name} takes a JSON list of objects, not ${kindOfValue(edit)}`;
      return { ok: false, issues: [{ path: [], message: issue }] };
    }
    merged = edit
      .map((item) => (isRecord(item) ? withoutEmpty(item) : item))
      .filter((item) => !isEmptyValue(item));
  }
  const parsed = type.schema.safeParse(merged);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, issues: issuesOf(parsed.error) };
}

/** `evaluationCriteria` → "Evaluation criteria", `funder_need` → "Funder need": a field's label. */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words === "" ? key : words[0]?.toUpperCase() + words.slice(1);
}
