/**
 * The review boundary: every field a reviewer (or a client acting for one) hands to a review is
 * checked by these schemas and nowhere else — graph resumes, the orchestrator, the service, the CLI.
 */
import { z } from "zod";
import { MAX_CORRECTIONS } from "../scoring/corrections.js";
import { describeJsonProblem, isRecord, readUntrustedJson } from "../untrusted/json.js";
import type { StageDefinition } from "./stages.js";
import {
  applyContentEdit,
  type ContentIssue,
  type StructuredContentType,
  structuredContentOf,
} from "./structuredContent.js";

export const REVIEW_LIMITS = {
  reviewerNameChars: 100,
  feedbackChars: 20_000,
  noteChars: 2_000,
  editContentBytes: 1_048_576,
  editJsonDepth: 64,
  idChars: 128,
  criterionIdChars: 200,
  shownIdChars: 64,
} as const;

/** A C0 or C1 control character other than tab, line feed and carriage return. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;
/** A surrogate without its pair cannot be written as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Not in a one-line label: controls, format (bidi, zero-width), line separators, private use. */
const NOT_IN_LABEL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;
/** Letters and symbols that render as nothing: the Hangul fillers, the blank Braille pattern. */
const BLANK_LOOKALIKES = /[\u115F\u1160\u3164\uFFA0\u2800]/gu;
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
const ID_TEXT = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text.replace(BLANK_LOOKALIKES, ""));
}

const NOT_UNICODE = "is not valid Unicode text (a lone surrogate)";
const HAS_CONTROL = "has a control character (NUL, ESC, …): only tab and line breaks are allowed";
const INVISIBLE = "has no visible text: only spaces, invisible or formatting characters";

/** An id as a message quotes it: in double quotes, escaped, cut to 64 characters with "…". */
export function quotedId(value: string): string {
  const max = REVIEW_LIMITS.shownIdChars;
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(cut).replace(
    /[\p{Cf}\p{Zl}\p{Zp}]/gu,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}

export function shownId(value: string): string {
  return ID_TEXT.test(value) && value.length <= REVIEW_LIMITS.shownIdChars
    ? value
    : quotedId(value);
}

const abort = (error: string) => ({ error, abort: true });

function writtenText(max: number) {
  return z
    .string()
    .max(max, abort(`is longer than ${max} characters`))
    .refine((s) => !LONE_SURROGATE.test(s), abort(NOT_UNICODE))
    .refine((s) => !CONTROL.test(s), abort(HAS_CONTROL))
    .refine(hasVisibleText, abort(INVISIBLE))
    .trim();
}

export const FeedbackSchema = writtenText(REVIEW_LIMITS.feedbackChars);
export const CommentSchema = FeedbackSchema;
export const NoteSchema = writtenText(REVIEW_LIMITS.noteChars);

const CONTENT_TOO_BIG = `is larger than ${REVIEW_LIMITS.editContentBytes} bytes of UTF-8 (1 MiB)`;

export const EditContentSchema = z
  .string()
  .max(REVIEW_LIMITS.editContentBytes, abort(CONTENT_TOO_BIG))
  .refine(
    (s) => Buffer.byteLength(s, "utf8") <= REVIEW_LIMITS.editContentBytes,
    abort(CONTENT_TOO_BIG),
  )
  .refine((s) => !LONE_SURROGATE.test(s), abort(NOT_UNICODE))
  .refine(
    (s) => !CONTROL.test(s),
    abort("has a NUL or other control character: only tab and line breaks are allowed"),
  )
  .refine(hasVisibleText, abort("has no visible text"))
  .trim();

const NAME_LIMIT = `is longer than ${REVIEW_LIMITS.reviewerNameChars} characters`;

export const ReviewerNameSchema = z
  .string()
  .max(REVIEW_LIMITS.reviewerNameChars * 10, abort(NAME_LIMIT))
  .trim()
  .min(1, abort("is empty"))
  .max(REVIEW_LIMITS.reviewerNameChars, abort(NAME_LIMIT))
  .refine(
    (s) => !NOT_IN_LABEL.test(s) && !LONE_SURROGATE.test(s),
    abort("has a line break, control or invisible formatting character: a name is one line"),
  )
  .refine(hasVisibleText, "has no visible character");

function idSchema() {
  return z
    .string()
    .min(1, abort("is empty"))
    .max(REVIEW_LIMITS.idChars, abort(`is longer than ${REVIEW_LIMITS.idChars} characters`))
    .regex(
      ID_TEXT,
      "may hold only letters, digits and . _ : - (and starts with a letter or digit)",
    );
}

export const ThreadIdSchema = idSchema();
export const InterruptIdSchema = idSchema();

export const CriterionIdSchema = z
  .string()
  .min(1, abort("is empty"))
  .max(
    REVIEW_LIMITS.criterionIdChars,
    abort(`is longer than ${REVIEW_LIMITS.criterionIdChars} characters`),
  )
  .refine(
    (s) => !NOT_IN_LABEL.test(s) && !LONE_SURROGATE.test(s) && s.trim() === s,
    "is not one line of printable text without spaces around it",
  );

/** A reviewer's correction, on the criterion's own scale: a score or a level, with a note. */
export const ReviewCorrectionSchema = z
  .strictObject({
    criterionId: CriterionIdSchema,
    score: z.number().finite().optional(),
    level: CriterionIdSchema.optional(),
    note: NoteSchema.optional(),
  })
  .refine((c) => (c.score === undefined) !== (c.level === undefined), {
    message: "give either score (on the criterion's own scale) or level (a level id, or pass/fail)",
  });

export const ReviewCorrectionListSchema = z.array(ReviewCorrectionSchema).max(MAX_CORRECTIONS);

function someFields(type: StructuredContentType): string {
  const keys = type.fields.map((f) => f.key);
  return keys.length === 0
    ? ""
    : ` (${keys.slice(0, 3).join(", ")}${keys.length > 3 ? ", …" : ""})`;
}

/** Where an issue of a structured edit is, in words: `funder`, `pair 2 funderNeed`, or "". */
function issuePlace(type: StructuredContentType, path: ReadonlyArray<string | number>): string {
  return path
    .map((part) =>
      typeof part === "number" ? `${(type.itemName ?? "item").toLowerCase()} ${part + 1}` : part,
    )
    .join(" ");
}

/**
 * The first text in an edit's JSON (a key or a value, at any depth) that no edit may hold: JSON
 * escapes can write what the edit's own text may not (`\\u0000`, `\\ud800`, `\\u200b`).
 */
function unfitText(value: unknown, path: Array<string | number> = []): ContentIssue | undefined {
  if (typeof value === "string") {
    if (LONE_SURROGATE.test(value)) return { path, message: NOT_UNICODE };
    if (CONTROL.test(value)) return { path, message: HAS_CONTROL };
    if (value.trim() !== "" && !hasVisibleText(value)) return { path, message: INVISIBLE };
    return undefined;
  }
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? [...value.entries()]
    : isRecord(value)
      ? Object.entries(value)
      : [];
  for (const [key, item] of entries) {
    const badKey = typeof key === "string" ? unfitText(key, [...path, quotedId(key)]) : undefined;
    const found = badKey ?? unfitText(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** An edit of a structured stage, as JSON applied to its current content by the edit rule (applyContentEdit). */
export function readStructuredEdit(
  stage: Pick<StageDefinition, "title" | "contentType" | "contentKind">,
  type: StructuredContentType,
  content: string,
  current?: unknown,
): { ok: true; value: unknown } | { ok: false; issue: string } {
  const text = content.trim();
  const shape = type.shape === "object" ? "a JSON object of its fields" : "a JSON list of objects";
  const takes = `the ${stage.title} takes ${shape}${someFields(type)}`;
  if (!text.startsWith("{") && !text.startsWith("[")) {
    return {
      ok: false,
      issue: `${takes}; plain text cannot replace it (edit its fields on the review page, or in the terminal's edit form)`,
    };
  }
  const read = readUntrustedJson(text, { maxDepth: REVIEW_LIMITS.editJsonDepth });
  if (!read.ok) {
    return {
      ok: false,
      issue: `${takes}; this is not usable JSON (${describeJsonProblem(read.problem)})`,
    };
  }
  const unfit = unfitText(read.value);
  const applied = unfit === undefined ? applyContentEdit(type, current, read.value) : undefined;
  if (applied?.ok) return applied;
  const issue = unfit ?? applied?.issues[0];
  const place = issue === undefined ? "" : issuePlace(type, issue.path);
  const what = `${place === "" ? "" : `${place}: `}${issue?.message ?? "it does not fit"}`;
  return { ok: false, issue: `${takes}; ${what}` };
}

/** Why an edit does not fit the stage it replaces (a text stage takes any text), or undefined. */
export function editContentIssue(
  stage: Pick<StageDefinition, "title" | "contentType" | "contentKind">,
  content: string,
  current?: unknown,
): string | undefined {
  const type = structuredContentOf(stage);
  if (type === undefined) return undefined;
  const read = readStructuredEdit(stage, type, content, current);
  return read.ok ? undefined : read.issue;
}

interface FieldIssue {
  path: PropertyKey[];
  message: string;
}

function discriminatorMiss(issue: z.core.$ZodIssue): boolean {
  return issue.code === "invalid_union" && issue.errors.length === 0;
}

/** zod's issues with each union failure resolved to the branch whose discriminator matched, so a message names the field. */
export function readableIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: PropertyKey[] = [],
): FieldIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const meant = issue.errors.filter((branch) => !branch.every(discriminatorMiss));
      const [branch] = meant.length === 1 ? meant : issue.errors;
      if (branch !== undefined && branch.length > 0) return readableIssues(branch, path);
    }
    return [{ path, message: issue.message }];
  });
}
