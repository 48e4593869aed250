/**
 * The structured edit of a posted review form. For structured content (research, solution sought,
 * connection pairs) the edit form sends one field per content field (`content.<key>`, or
 * `content.<item>.<key>` for a list); they become the content's JSON only when they fit its
 * schema. Otherwise the review is shown again with the values as entered and each problem beside
 * its field, so nothing typed is lost.
 */
import type { ReviewDetail } from "../../desk/answers.js";
import {
  CONTENT_FORM_FIELD,
  type EditDraft,
  editedJson,
  postedEdit,
  reviewContentType,
  shownContent,
} from "./structuredEdit.js";

/** The form to decide with, or the draft to show again, with the entered fields. */
export type PreparedForm =
  | { kind: "form"; form: Record<string, string>; draft?: EditDraft }
  | { kind: "refused"; form: Record<string, string>; draft: EditDraft };

/** Whether the posted form carries a structured edit (and so needs the review to read it). */
export function hasStructuredEdit(form: Readonly<Record<string, string>>): boolean {
  return CONTENT_FORM_FIELD in form;
}

/** The posted form with a structured edit's fields turned into `content` (see the module). */
export function preparedForm(form: Record<string, string>, review: ReviewDetail): PreparedForm {
  if (!hasStructuredEdit(form)) return { kind: "form", form };
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
