/**
 * The review boundary: what a reviewer (or a client acting for one) hands to a review, checked by
 * these schemas and nowhere else — the decision a graph resumes with (ReviewDecisionSchema and
 * the Agent Inbox shapes are built from them), the orchestrator's decisions, the service's API
 * and pages, `evalgate review` and the terminal review.
 *
 * - Reviewer names: one line of printable text, trimmed, at most 100 characters — no line break,
 *   control, bidi or zero-width character (a name lands in logs, histories and reports).
 * - Feedback and comments: visible text is required (not only spaces, zero-width or formatting
 *   characters), no control character but tab, line feed and carriage return, at most 20,000
 *   characters. Notes on corrections: the same, at most 2,000.
 * - Edited content: no NUL or other control character but tab, line feed and carriage return,
 *   visible text, at most 1 MiB of UTF-8; for a structured stage (an object or a list), JSON
 *   applied to the current content by the edit rule of structuredContent.ts — plain text is
 *   refused (see editContentIssue).
 * - Ids: thread and interrupt ids of letters, digits and `. _ : -` (at most 128), criterion ids one
 *   printable line (at most 200). An id that is refused is shown cut to 64 characters, escaped.
 */
import { z } from "zod";
import { MAX_CORRECTIONS } from "../scoring/corrections.js";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
import type { StageDefinition } from "./stages.js";
import {
  applyContentEdit,
  type StructuredContentType,
  structuredContentOf,
} from "./structuredContent.js";

/** The limits of the review boundary. */
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

/** True when the text has a C0 or C1 control or DEL, other than tab, line feed, carriage return. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0x7f && c <= 0x9f)) {
      return true;
    }
  }
  return false;
}
/** A UTF-16 surrogate without its pair: not text (it cannot be written as UTF-8). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Not in a one-line label: controls, format (bidi, zero-width), line separators, private use. */
const NOT_IN_LABEL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;
/** Letters and symbols that render as nothing: the Hangul fillers, the blank Braille pattern. */
const BLANK_LOOKALIKES = /[\u115F\u1160\u3164\uFFA0\u2800]/gu;
/** A character that shows: a letter, a digit, punctuation or a symbol. */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
/** Thread and interrupt ids. */
const ID_TEXT = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** True when the text has a character that shows (not only spaces, invisible or format ones). */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text.replace(BLANK_LOOKALIKES, ""));
}

/** An id as a message quotes it: in double quotes, escaped, cut to 64 characters with "…". */
export function quotedId(value: string): string {
  const max = REVIEW_LIMITS.shownIdChars;
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(cut).replace(
    /[\p{Cf}\p{Zl}\p{Zp}]/gu,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}

/** An id as a message shows it: as it is when it is a plain id, else quoted (quotedId). */
export function shownId(value: string): string {
  return ID_TEXT.test(value) && value.length <= REVIEW_LIMITS.shownIdChars
    ? value
    : quotedId(value);
}

const abort = (error: string) => ({ error, abort: true });

/** Text written for people — feedback, a comment, a note — trimmed. */
function writtenText(max: number) {
  return z
    .string()
    .max(max, abort(`is longer than ${max} characters`))
    .refine((s) => !LONE_SURROGATE.test(s), abort("is not valid Unicode text (a lone surrogate)"))
    .refine(
      (s) => !hasControl(s),
      abort("has a control character (NUL, ESC, …): only tab and line breaks are allowed"),
    )
    .refine(
      hasVisibleText,
      abort("has no visible text: only spaces, invisible or formatting characters"),
    )
    .trim();
}

/** What the writer is asked to change (revise). */
export const FeedbackSchema = writtenText(REVIEW_LIMITS.feedbackChars);
/** A comment kept with a decision. */
export const CommentSchema = writtenText(REVIEW_LIMITS.feedbackChars);
/** Why a corrected score is wrong. */
export const NoteSchema = writtenText(REVIEW_LIMITS.noteChars);

const CONTENT_TOO_BIG = `is larger than ${REVIEW_LIMITS.editContentBytes} bytes of UTF-8 (1 MiB)`;

/** The content a reviewer's edit replaces the stage's with (trimmed). */
export const EditContentSchema = z
  .string()
  .max(REVIEW_LIMITS.editContentBytes, abort(CONTENT_TOO_BIG))
  .refine(
    (s) => Buffer.byteLength(s, "utf8") <= REVIEW_LIMITS.editContentBytes,
    abort(CONTENT_TOO_BIG),
  )
  .refine((s) => !LONE_SURROGATE.test(s), abort("is not valid Unicode text (a lone surrogate)"))
  .refine(
    (s) => !hasControl(s),
    abort("has a NUL or other control character: only tab and line breaks are allowed"),
  )
  .refine(hasVisibleText, abort("has no visible text"))
  .trim();

const NAME_LIMIT = `is longer than ${REVIEW_LIMITS.reviewerNameChars} characters`;

/** Who decided: one line of printable text. */
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

/** A thread id: letters, digits and `. _ : -`, at most 128 characters. */
export const ThreadIdSchema = idSchema();
/** An interrupt id (LangGraph's are 32 hex digits). */
export const InterruptIdSchema = idSchema();

/** A criterion id (or a level id) as catalogs have them: one printable line, at most 200. */
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

/**
 * A correction a reviewer sends with a decision, on the criterion's own scale: `score` (2 on a
 * 1–5 criterion, 0.4 on a 0–1 one) or `level` (a level id, or pass/fail for a check), with a note.
 */
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

/** The field names a message offers for a structured type: the first few, then "…". */
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
 * An edit of a structured stage applied to its current content: JSON (parsed with
 * prototype-poisoning protection, at most 64 levels deep) applied by the edit rule
 * (applyContentEdit: an object's edit changes the fields it gives, keeps the rest, and may not
 * empty or leave out a required field; no wrong types); or why it does not fit, naming the field.
 * Plain text is refused: it cannot replace structured content.
 */
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
  const applied = applyContentEdit(type, current, read.value);
  if (applied.ok) return applied;
  const issue = applied.issues[0];
  const place = issue === undefined ? "" : issuePlace(type, issue.path);
  const what = `${place === "" ? "" : `${place}: `}${issue?.message ?? "it does not fit"}`;
  return { ok: false, issue: `${takes}; ${what}` };
}

/**
 * Why an edit does not fit the stage it replaces, or undefined when it does. A text stage takes
 * any text. A structured stage (research and the solution are objects, the connection pairs a
 * list of objects) takes JSON applied to its current content by the edit rule
 * (readStructuredEdit); plain text is refused.
 */
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

/** One issue of a value, where (a path into it) and what. */
export interface FieldIssue {
  path: PropertyKey[];
  message: string;
}

/** A union branch that failed only because its discriminator did not match. */
function discriminatorMiss(issue: z.core.$ZodIssue): boolean {
  return issue.code === "invalid_union" && issue.errors.length === 0;
}

/**
 * zod's issues with every union failure resolved to the branch the value was meant for: the one
 * branch whose discriminator matched (a decision's `action`, Agent Inbox's `type`), so a message
 * names the field at fault ("feedback: has no visible text") instead of "Invalid input".
 */
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
