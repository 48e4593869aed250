/**
 * The edit of structured content, read back from the posted form: one text area per field —
 * `content.<key>` (an object), `content.<item>.<key>` (a list) — with `kind.…` for a field beyond
 * the known ones, and `contentForm` saying which shape was posted. The fields become the edit's
 * JSON (an emptied field as null, so the decision removes it) only once contentFromForm takes them
 * against the content shown; otherwise the page is shown again with the field at fault.
 */
import type { ReviewDetail } from "../../desk/answers.js";
import {
  type ContentIssue,
  contentFromForm,
  type FieldEntry,
  type FieldKind,
  type FormInput,
} from "../../graph/contentFields.js";
import { REVIEW_LIMITS } from "../../graph/reviewInput.js";
import { type StructuredContentType, structuredContentOf } from "../../graph/structuredContent.js";
import { readUntrustedJson } from "../../untrusted/json.js";

export const CONTENT_FORM_FIELD = "contentForm";

/** `content.<key>`, `content.<item>.<key>`, `kind.<key>`, `kind.<item>.<key>`. */
const FORM_FIELD = /^(content|kind)\.(?:(\d{1,4})\.)?([^.]{1,64})$/;
const KINDS: ReadonlySet<string> = new Set(["text", "list", "json"]);

/** What a refused edit shows again: the entered fields (or text), and what was wrong. */
export interface EditDraft {
  input?: FormInput;
  text?: string;
  issues: ContentIssue[];
  /** A refusal that names no field (the desk's message). */
  message?: string;
}

interface PostedEdit {
  rest: Record<string, string>;
  input?: FormInput;
  /** Form fields that belong to no field of the form. */
  strays: string[];
}

/** A known field's own kind; another field's as posted in `kind.<prefix><key>`, else text. */
function kindOf(
  kinds: Map<string, string>,
  key: string,
  prefix: string,
  known?: StructuredContentType,
) {
  const field = known?.fields.find((f) => f.key === key);
  if (field !== undefined) return field.kind;
  const posted = kinds.get(`${prefix}${key}`);
  return (posted !== undefined && KINDS.has(posted) ? posted : "text") as FieldKind;
}

function postedEdit(
  fields: Record<string, string>,
  type: StructuredContentType | undefined,
): PostedEdit {
  const shape = fields[CONTENT_FORM_FIELD];
  const rest: Record<string, string> = {};
  const kinds = new Map<string, string>();
  /** A posted value per item (0 for an object's fields), per field key. */
  const items = new Map<number, Map<string, string>>();
  const strays: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (name === CONTENT_FORM_FIELD) continue;
    const [, part, index, key = ""] = FORM_FIELD.exec(name) ?? [];
    if (part === "kind") kinds.set(index === undefined ? key : `${index}.${key}`, value);
    else if (part === "content" && (index === undefined ? shape === "object" : shape === "list")) {
      const item = items.get(Number(index ?? 0)) ?? new Map<string, string>();
      items.set(Number(index ?? 0), item.set(key, value));
    } else if (name.startsWith("content.") || name.startsWith("kind.")) strays.push(name);
    else rest[name] = value;
  }
  if (shape !== "object" && shape !== "list") return { rest, strays };
  const entries = (item: Map<string, string>, prefix: string): FieldEntry[] =>
    [...item].map(([key, text]) => ({ key, text, kind: kindOf(kinds, key, prefix, type) }));
  const listed = () => [...items].sort(([a], [b]) => a - b);
  const input: FormInput =
    shape === "object"
      ? { shape, fields: entries(items.get(0) ?? new Map(), "") }
      : { shape, items: listed().map(([index, item]) => entries(item, `${index}.`)) };
  return { rest, input, strays };
}

/** The structured type of the stage a review is about, when its content is structured. */
export function reviewContentType(
  review: Pick<ReviewDetail, "stage" | "contentKind">,
): StructuredContentType | undefined {
  if (review.contentKind === "text") return undefined;
  return structuredContentOf({ contentType: review.stage, contentKind: review.contentKind });
}

/** The review's content as the page showed it (its JSON text read back). */
export function shownContent(review: Pick<ReviewDetail, "content">): unknown {
  const read = readUntrustedJson(review.content, { maxDepth: REVIEW_LIMITS.editJsonDepth });
  return read.ok ? read.value : undefined;
}

function editedJson(
  type: StructuredContentType,
  input: FormInput,
  strays: readonly string[],
  current?: unknown,
): { ok: true; json: string } | { ok: false; draft: EditDraft } {
  if (strays.length > 0) {
    const issues = strays.map((name) => ({
      path: [],
      message: `"${name.slice(0, 80)}" is not a field of this form`,
    }));
    return { ok: false, draft: { input, issues } };
  }
  const read = contentFromForm(type, input, current);
  if (read.ok) return { ok: true, json: JSON.stringify(read.edit, null, 2) };
  return { ok: false, draft: { input, issues: read.issues } };
}

/** The posted form with a structured edit's fields turned into `content`, or the draft refused. */
export function preparedForm(
  form: Record<string, string>,
  review: ReviewDetail,
):
  | { kind: "form"; form: Record<string, string>; draft?: EditDraft }
  | { kind: "refused"; form: Record<string, string>; draft: EditDraft } {
  const type = reviewContentType(review);
  const posted = postedEdit(form, type);
  if (type === undefined || posted.input === undefined) {
    const message = "this review's content is text: send it as one text, not as fields";
    return { kind: "refused", form: posted.rest, draft: { issues: [], message } };
  }
  const draft: EditDraft = { input: posted.input, issues: [] };
  if (posted.rest.action !== "edit") return { kind: "form", form: posted.rest, draft };
  const read = editedJson(type, posted.input, posted.strays, shownContent(review));
  if (!read.ok) return { kind: "refused", form: posted.rest, draft: read.draft };
  return { kind: "form", form: { ...posted.rest, content: read.json }, draft };
}
