/**
 * A decision posted from the review page. Corrections and, for an edit of structured content, the
 * fields of the edit form are read back first (a structured edit becomes the content's JSON only
 * when it fits its schema); then the desk decides. An edit the schema, the review boundary or the
 * desk refuses shows the review again (400) with the values as entered and what was wrong, so
 * nothing typed is lost.
 */
import type { Context } from "hono";
import { isEvalgateError } from "../../errors.js";
import {
  type DecisionRequest,
  DecisionRequestSchema,
  type ReviewDesk,
  type ReviewDetail,
} from "../../orchestrator/reviewDesk.js";
import type { ServiceEnv } from "../env.js";
import { requireValid } from "../validation.js";
import { correctionsOfForm } from "./correctionFields.js";
import { htmlDocument } from "./layout.js";
import { checkedForm } from "./pageSession.js";
import { ReviewPage } from "./review.js";
import {
  CONTENT_FORM_FIELD,
  type EditDraft,
  editedJson,
  postedEdit,
  reviewContentType,
} from "./structuredEdit.js";

/** The form's optional fields left empty are absent, as in a JSON body. */
function withoutEmpty(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ""));
}

function showAgain(c: Context<ServiceEnv>, review: ReviewDetail, draft: EditDraft) {
  const page = (
    <ReviewPage
      reviewer={c.var.reviewer.name}
      csrf={c.var.session.csrf}
      review={review}
      editDraft={draft}
    />
  );
  return c.html(htmlDocument(page), 400);
}

type Prepared =
  | { kind: "request"; body: Record<string, unknown>; draft: Omit<EditDraft, "issues"> }
  | { kind: "refused"; draft: EditDraft };

/** The decision's body; a structured edit's fields turned into its content, or refused. */
function prepared(fields: Record<string, string>, review: ReviewDetail | undefined): Prepared {
  if (!(CONTENT_FORM_FIELD in fields) || review === undefined) {
    return { kind: "request", body: fields, draft: { text: fields.content ?? "" } };
  }
  const type = reviewContentType(review);
  const posted = postedEdit(fields, type);
  if (type === undefined || posted.input === undefined) {
    const message = "this review's content is text: send it as one text, not as fields";
    return { kind: "refused", draft: { issues: [], message } };
  }
  if (posted.rest.action !== "edit") return { kind: "request", body: posted.rest, draft: {} };
  const read = editedJson(type, posted.input, posted.strays);
  if (!read.ok) return { kind: "refused", draft: read.draft };
  return {
    kind: "request",
    body: { ...posted.rest, content: read.json },
    draft: { input: posted.input },
  };
}

/** Handles `POST /reviews/:threadId/decisions` (see the module's description). */
export async function postDecision(c: Context<ServiceEnv>, desk: ReviewDesk, threadId: string) {
  const { fields, corrections } = correctionsOfForm(withoutEmpty(await checkedForm(c)));
  const editing = fields.action === "edit";
  const review = editing ? await desk.getReview(threadId, c.var.reviewer) : undefined;
  const ready = prepared(fields, review);
  if (ready.kind === "refused" && review !== undefined) return showAgain(c, review, ready.draft);
  const body = ready.kind === "request" ? ready.body : fields;
  const form = corrections.length === 0 ? body : { ...body, corrections };
  const parsed = DecisionRequestSchema.safeParse(form);
  const draft = ready.kind === "request" ? ready.draft : {};
  if (!parsed.success && review !== undefined) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") || "the decision";
    const message = `the decision is invalid: ${field}: ${issue?.message}`;
    return showAgain(c, review, { ...draft, issues: [], message });
  }
  const request: DecisionRequest = requireValid(parsed, "the decision");
  try {
    await desk.decide(threadId, request, c.var.reviewer);
  } catch (error) {
    if (review === undefined || !isEvalgateError(error, "INVALID_INPUT")) throw error;
    return showAgain(c, review, { ...draft, issues: [], message: error.message });
  }
  const after = encodeURIComponent(request.interruptId);
  return c.redirect(`/reviews/${encodeURIComponent(threadId)}/progress?after=${after}`, 303);
}
