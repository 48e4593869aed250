/**
 * The structured contents of the proposal graph — the research, the solution sought and the
 * connection pairs — as zod schemas: what a writer's answer must be (generators.ts) and what a
 * reviewer's edit must be (reviewInput.ts), in one place. Each is a JSON object (or a list of
 * them) whose fields are text or lists of text; fields a writer or reviewer adds beyond the known
 * ones are kept.
 */
import { z } from "zod";
import type { StageDefinition } from "./stages.js";

/** One field of a structured content: its key in the JSON and how it is written. */
export interface ContentFieldDefinition {
  key: string;
  /** text: one piece of text (line breaks allowed); list: a list of one-line items. */
  kind: "text" | "list";
}

/** A number a model wrote where text was asked for is kept as its text. */
const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);

/** A field of text: trimmed; empty text counts as absent. */
const TextField = z.preprocess((value) => {
  const text = asText(value);
  return typeof text === "string" && text.trim() === "" ? undefined : text;
}, z.string({ error: "takes text" }).trim().optional());

/** A list of text items (a single text is a list of one); empty items are left out. */
const ListField = z.preprocess(
  (value) => {
    const items = typeof value === "string" ? [value] : value;
    if (!Array.isArray(items)) return items;
    const kept = items
      .map(asText)
      .filter((item) => !(typeof item === "string" && item.trim() === ""));
    return kept.length === 0 ? undefined : kept;
  },
  z
    .array(z.string({ error: "each item takes text" }).trim(), {
      error: "takes a list of text items",
    })
    .optional(),
);

/** A field that must be there: text with something in it. */
const RequiredText = z.preprocess(
  asText,
  z.string({ error: "is required" }).trim().min(1, "is required"),
);

function objectOf(fields: readonly ContentFieldDefinition[]) {
  return z.looseObject(
    Object.fromEntries(fields.map((f) => [f.key, f.kind === "list" ? ListField : TextField])),
  );
}

/** True when some field of the object holds something. */
function hasContent(value: Record<string, unknown>): boolean {
  return Object.values(value).some((v) =>
    Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null && v !== "",
  );
}

/** The research on the funder and the RFP (prompts/generation/researchPrompt.ts). */
export const RESEARCH_FIELDS: readonly ContentFieldDefinition[] = [
  { key: "funder", kind: "text" },
  { key: "priorities", kind: "list" },
  { key: "eligibility", kind: "list" },
  { key: "evaluationCriteria", kind: "list" },
  { key: "fundingRange", kind: "text" },
  { key: "requiredSections", kind: "list" },
  { key: "deadlinesAndRules", kind: "list" },
  { key: "sources", kind: "list" },
];
export const ResearchContentSchema = objectOf(RESEARCH_FIELDS).refine(hasContent, {
  message: "the research has no field with content",
});
export type ResearchContent = z.infer<typeof ResearchContentSchema>;

/** The solution the funder seeks (prompts/generation/solutionPrompt.ts). */
export const SOLUTION_FIELDS: readonly ContentFieldDefinition[] = [
  { key: "problem", kind: "text" },
  { key: "desiredOutcomes", kind: "list" },
  { key: "preferredApproaches", kind: "list" },
  { key: "excludedApproaches", kind: "list" },
  { key: "successIndicators", kind: "list" },
  { key: "evidence", kind: "list" },
];
export const SolutionContentSchema = objectOf(SOLUTION_FIELDS).refine(hasContent, {
  message: "the solution sought has no field with content",
});
export type SolutionContent = z.infer<typeof SolutionContentSchema>;

export const PAIR_STRENGTHS = ["strong", "moderate", "weak"] as const;

/** One connection pair's fields (prompts/generation/connectionPairsPrompt.ts). */
export const CONNECTION_PAIR_FIELDS: readonly ContentFieldDefinition[] = [
  { key: "funderNeed", kind: "text" },
  { key: "applicantCapability", kind: "text" },
  { key: "evidence", kind: "text" },
  { key: "strength", kind: "text" },
];
export const ConnectionPairSchema = z.looseObject({
  funderNeed: RequiredText,
  applicantCapability: RequiredText,
  evidence: TextField,
  strength: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() || undefined : value),
    z.enum(PAIR_STRENGTHS, { error: `is one of ${PAIR_STRENGTHS.join(", ")}` }).optional(),
  ),
});
export const ConnectionPairsContentSchema = z
  .array(ConnectionPairSchema, { error: "takes a list of pairs" })
  .min(1, "there is no connection pair");
export type ConnectionPairsContent = z.infer<typeof ConnectionPairsContentSchema>;

/** A structured content type: its shape, its (item's) fields and its schema. */
export interface StructuredContentType {
  /** What a message calls it: "the research", "the connection pairs". */
  name: string;
  shape: "object" | "list";
  /** The object's fields, or each item's for a list. */
  fields: readonly ContentFieldDefinition[];
  /** What one item of a list is called ("Pair"). */
  itemName?: string;
  schema: z.ZodType<Record<string, unknown> | Array<Record<string, unknown>>>;
}

const STRUCTURED_TYPES: Readonly<Record<string, StructuredContentType>> = {
  research: {
    name: "the research",
    shape: "object",
    fields: RESEARCH_FIELDS,
    schema: ResearchContentSchema,
  },
  solution: {
    name: "the solution sought",
    shape: "object",
    fields: SOLUTION_FIELDS,
    schema: SolutionContentSchema,
  },
  connection_pairs: {
    name: "the connection pairs",
    shape: "list",
    fields: CONNECTION_PAIR_FIELDS,
    itemName: "Pair",
    schema: ConnectionPairsContentSchema,
  },
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

/**
 * The structured type of a stage's content (by its content type: research, solution,
 * connection_pairs), a generic object or list for other structured stages, or undefined for text.
 */
export function structuredContentOf(
  stage: Pick<StageDefinition, "contentType" | "contentKind">,
): StructuredContentType | undefined {
  const known = STRUCTURED_TYPES[stage.contentType];
  if (known !== undefined) return known;
  if (stage.contentKind === "object") return GENERIC_OBJECT;
  if (stage.contentKind === "list") return GENERIC_LIST;
  return undefined;
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
