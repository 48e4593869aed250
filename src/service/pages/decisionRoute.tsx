/**
 * The review page's decision post. The one form's fields become the decision the chosen button
 * names (`action`): its own field (feedback for revise, content for edit), the comment and the
 * score corrections. Recorded: 303 to the progress page. Refused for what was entered (a field,
 * an action the review does not offer): the review page again, saying why, with everything
 * entered kept. Too late (someone decided first, or the review is no longer waiting): a 409 page
 * that says who decided what and when, and links to the thread and to the next review waiting.
 */
import type { Context } from "hono";
import { DecisionRequestSchema } from "../../desk/requests.js";
import type { ReviewDesk } from "../../desk/reviewDesk.js";
import { isEvalgateError } from "../../errors.js";
import { ThreadIdSchema } from "../../graph/reviewInput.js";
import type { ServiceEnv } from "../env.js";
import { describeError } from "../errorResponse.js";
import { ServiceRequestError } from "../errors.js";
import { requireValid } from "../validation.js";
import { correctionsOfForm } from "./correctionFields.js";
import { DecidedFirstPage, type DecidedFirstProps } from "./decidedFirst.js";
import { hasStructuredEdit, preparedForm } from "./decisionPost.js";
import { htmlDocument } from "./layout.js";
import { checkedForm } from "./pageSession.js";
import { ReviewPage } from "./review.js";
import type { EditDraft } from "./structuredEdit.js";

/** The fields each decision takes from the form, beside its corrections. */
const ACTION_FIELDS: Readonly<Record<string, readonly string[]>> = {
  approve: ["comment"],
  revise: ["feedback", "comment"],
  edit: ["content", "comment"],
  retry: ["comment"],
};

/** Refusals about what was entered: the form is shown again. */
const INPUT_REFUSALS = new Set(["INVALID_INPUT", "ACTION_NOT_OFFERED"]);
/** Refusals because the review is decided or gone: the 409 page. */
const TOO_LATE = new Set(["ALREADY_DECIDED", "REVIEW_NOT_PENDING"]);

/** The decision the form asks for, checked by the decision schema (INVALID_INPUT naming the field). */
export function decisionRequestOf(form: Readonly<Record<string, string>>) {
  const filled = Object.fromEntries(Object.entries(form).filter(([, value]) => value !== ""));
  const { fields, corrections } = correctionsOfForm(filled);
  const action = fields.action ?? "";
  const taken = ACTION_FIELDS[action];
  if (taken === undefined) {
    throw new ServiceRequestError(
      "INVALID_INPUT",
      "choose a decision with one of its buttons (approve, revise, edit or retry)",
      "action",
    );
  }
  if (action === "revise" && (fields.feedback ?? "").trim() === "") {
    throw new ServiceRequestError(
      "INVALID_INPUT",
      "to ask for a revision, say what the writer should change",
      "feedback",
    );
  }
  const request: Record<string, unknown> = { interruptId: fields.interruptId, action };
  for (const name of taken) if (fields[name] !== undefined) request[name] = fields[name];
  if (corrections.length > 0) request.corrections = corrections;
  return requireValid(DecisionRequestSchema.safeParse(request), "the decision");
}

function progressPath(threadId: string, interruptId: string): string {
  const after = encodeURIComponent(interruptId);
  return `/reviews/${encodeURIComponent(threadId)}/progress?after=${after}`;
}

/** The review page again, saying why the decision was refused, with the form as it was sent. */
async function refusedPage(
  c: Context<ServiceEnv>,
  desk: ReviewDesk,
  threadId: string,
  form: Record<string, string>,
  error: unknown,
  editDraft?: EditDraft,
): Promise<Response | undefined> {
  const review = await desk.getReview(threadId, c.var.reviewer).catch(() => undefined);
  if (review === undefined) return undefined;
  const described = describeError(error);
  const page = (
    <ReviewPage
      reviewer={c.var.reviewer.name}
      csrf={c.var.session.csrf}
      review={review}
      error={described.body.error}
      values={form}
      editDraft={editDraft}
      admin={c.var.reviewer.role === "admin"}
    />
  );
  return c.html(htmlDocument(page), described.status);
}

function detailsOf(error: unknown): Record<string, unknown> {
  const details: unknown = (error as { details?: unknown }).details;
  return typeof details === "object" && details !== null
    ? (details as Record<string, unknown>)
    : {};
}

/** Who decided the review, when and what: from the error, else from the thread's history. */
export async function decidedFirstProps(
  c: Context<ServiceEnv>,
  desk: ReviewDesk,
  threadId: string,
  interruptId: string,
  error: unknown,
): Promise<DecidedFirstProps> {
  const { reviewer } = c.var;
  const [thread, queue] = await Promise.all([
    desk.threadStatus(threadId, reviewer).catch(() => undefined),
    desk.listReviews(reviewer, { limit: 1 }).catch(() => undefined),
  ]);
  const recorded = thread?.decisions.findLast((d) => d.interruptId === interruptId);
  const details = detailsOf(error);
  const by = typeof details.by === "string" ? details.by : recorded?.reviewer;
  const at = typeof details.at === "string" ? details.at : recorded?.decidedAt;
  const action = typeof details.action === "string" ? details.action : recorded?.action;
  const next = queue?.items[0];
  return {
    reviewer: reviewer.name,
    csrf: c.var.session.csrf,
    threadId,
    title: thread?.title,
    status: thread?.status,
    stage: recorded?.stage,
    decided:
      by === undefined || at === undefined || action === undefined ? undefined : { by, at, action },
    ...(next === undefined ? {} : { next }),
  };
}

export async function answerDecision(c: Context<ServiceEnv>, desk: ReviewDesk): Promise<Response> {
  const threadId = requireValid(ThreadIdSchema.safeParse(c.req.param("threadId")), "thread id");
  const posted = await checkedForm(c);
  const review = hasStructuredEdit(posted)
    ? await desk.getReview(threadId, c.var.reviewer)
    : undefined;
  const prepared =
    review === undefined ? { kind: "form" as const, form: posted } : preparedForm(posted, review);
  const { form } = prepared;
  if (prepared.kind === "refused") {
    const refusal = new ServiceRequestError(
      "INVALID_INPUT",
      prepared.draft.message ?? "the edit does not fit this content's fields (see below)",
      "content",
    );
    // The refusal is said once, above the form; the fields keep their own problems.
    const { message: _said, ...draft } = prepared.draft;
    const page = await refusedPage(c, desk, threadId, form, refusal, draft);
    if (page !== undefined) return page;
    throw refusal;
  }
  try {
    const request = decisionRequestOf(form);
    await desk.decide(threadId, request, c.var.reviewer);
    return c.redirect(progressPath(threadId, request.interruptId), 303);
  } catch (error) {
    if (isEvalgateError(error) && TOO_LATE.has(error.code)) {
      const props = await decidedFirstProps(c, desk, threadId, form.interruptId ?? "", error);
      return c.html(htmlDocument(<DecidedFirstPage {...props} />), 409);
    }
    if (isEvalgateError(error) && INPUT_REFUSALS.has(error.code)) {
      const draft = prepared.draft === undefined ? undefined : { ...prepared.draft, issues: [] };
      const page = await refusedPage(c, desk, threadId, form, error, draft);
      if (page !== undefined) return page;
    }
    throw error;
  }
}
