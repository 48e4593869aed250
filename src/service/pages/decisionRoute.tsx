/**
 * The review page's decision post: the form's fields become the decision the chosen button names
 * (`action`). Recorded: 303 to the progress page. Refused for what was entered: the review page
 * again, saying why, with everything entered kept. Too late (decided first, or no longer waiting):
 * a 409 page that says who decided what and when.
 */
import type { Context } from "hono";
import type { ReviewDetail } from "../../desk/answers.js";
import { DecisionRequestSchema } from "../../desk/requests.js";
import type { ReviewDesk } from "../../desk/reviewDesk.js";
import { isEvalgateError } from "../../errors.js";
import type { ServiceEnv } from "../env.js";
import { describeError, ServiceRequestError, saidBy } from "../errors.js";
import { requireValid, threadIdParam } from "../validation.js";
import { correctionsOfForm } from "./correctionFields.js";
import { DecidedFirstPage, type DecidedFirstProps } from "./decidedFirst.js";
import { checkedForm, pageResponse, readerOf } from "./pageSession.js";
import { ReviewPage } from "./review.js";
import { CONTENT_FORM_FIELD, type EditDraft, preparedForm } from "./structuredEdit.js";

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

function decisionRequestOf(form: Readonly<Record<string, string>>) {
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

/** The review page again, saying why the decision was refused, with the form as it was sent. */
async function refusedPage(
  c: Context<ServiceEnv>,
  desk: ReviewDesk,
  form: Record<string, string>,
  error: unknown,
  editDraft?: EditDraft,
): Promise<Response | undefined> {
  const review = await desk.getReview(threadIdParam(c), c.var.reviewer).catch(() => undefined);
  if (review === undefined) return undefined;
  const described = describeError(error);
  const page = (
    <ReviewPage
      {...readerOf(c)}
      review={review}
      error={described.body.error}
      values={form}
      editDraft={editDraft}
    />
  );
  return pageResponse(c, page, described.status);
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
  const said = saidBy(error);
  const by = said.by ?? recorded?.reviewer;
  const at = said.at ?? recorded?.decidedAt;
  const action = said.action ?? recorded?.action;
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

/** The review a form of structured content answers, while it waits: a stale form goes to the desk, which says who decided. */
async function reviewOfForm(
  c: Context<ServiceEnv>,
  desk: ReviewDesk,
  threadId: string,
  posted: Readonly<Record<string, string>>,
): Promise<ReviewDetail | undefined> {
  if (!(CONTENT_FORM_FIELD in posted)) return undefined;
  const review = await pendingReview(desk, threadId, c);
  return review?.interruptId === posted.interruptId ? review : undefined;
}

/** The review now pending on the thread, if one is. */
export function pendingReview(desk: ReviewDesk, threadId: string, c: Context<ServiceEnv>) {
  return desk.getReview(threadId, c.var.reviewer).catch((error: unknown) => {
    if (isEvalgateError(error, "REVIEW_NOT_PENDING")) return undefined;
    throw error;
  });
}

export async function answerDecision(c: Context<ServiceEnv>, desk: ReviewDesk): Promise<Response> {
  const threadId = threadIdParam(c);
  const posted = await checkedForm(c);
  const review = await reviewOfForm(c, desk, threadId, posted);
  const prepared =
    review === undefined
      ? { kind: "form" as const, form: posted, draft: undefined }
      : preparedForm(posted, review);
  const { form } = prepared;
  if (prepared.kind === "refused") {
    const refusal = new ServiceRequestError(
      "INVALID_INPUT",
      prepared.draft.message ?? "the edit does not fit this content's fields (see below)",
      "content",
    );
    // The refusal is said once, above the form; the fields keep their own problems.
    const { message: _said, ...draft } = prepared.draft;
    const page = await refusedPage(c, desk, form, refusal, draft);
    if (page !== undefined) return page;
    throw refusal;
  }
  try {
    const request = decisionRequestOf(form);
    await desk.decide(threadId, request, c.var.reviewer);
    const after = encodeURIComponent(request.interruptId);
    return c.redirect(`/reviews/${encodeURIComponent(threadId)}/progress?after=${after}`, 303);
  } catch (error) {
    if (isEvalgateError(error) && TOO_LATE.has(error.code)) {
      const props = await decidedFirstProps(c, desk, threadId, form.interruptId ?? "", error);
      return pageResponse(c, <DecidedFirstPage {...props} />, 409);
    }
    if (isEvalgateError(error) && INPUT_REFUSALS.has(error.code)) {
      const draft = prepared.draft === undefined ? undefined : { ...prepared.draft, issues: [] };
      const page = await refusedPage(c, desk, form, error, draft);
      if (page !== undefined) return page;
    }
    throw error;
  }
}
