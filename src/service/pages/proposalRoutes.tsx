/**
 * The pages' proposal routes beside the queue: the finished proposals (a tab of the queue), and
 * the start form's post (whoever may start a proposal through the API), which hands the request and the applicant to the same
 * desk call as `POST /api/proposals` and follows the new thread on its progress page.
 */
import type { Context, Hono } from "hono";
import { PageRequestSchema, ThreadListRequestSchema } from "../../desk/requests.js";
import type { ReviewDesk } from "../../desk/reviewDesk.js";
import { isEvalgateError } from "../../errors.js";
import { allow } from "../access.js";
import type { ServiceEnv } from "../env.js";
import { describeError } from "../errorResponse.js";
import { requireValid } from "../validation.js";
import { FinishedPage } from "./finishedPage.js";
import { htmlDocument } from "./layout.js";
import { type CheckedForm, checkedUpload } from "./pageSession.js";
import { QueuePage } from "./queue.js";
import { START_FILE_FIELDS, startProposalOf, typedValues } from "./startProposalPost.js";

function isAdmin(c: Context<ServiceEnv>): boolean {
  return c.var.reviewer.role === "admin";
}

/** The queue again, its start form filled in as sent and saying why it was refused. */
async function refusedStart(
  c: Context<ServiceEnv>,
  desk: ReviewDesk,
  form: CheckedForm,
  error: unknown,
): Promise<Response> {
  const described = describeError(error);
  const page = await desk.listReviews(c.var.reviewer, PageRequestSchema.parse({}));
  const start = { values: typedValues(form), error: described.body.error };
  const queue = (
    <QueuePage
      reviewer={c.var.reviewer.name}
      csrf={c.var.session.csrf}
      page={page}
      admin={isAdmin(c)}
      start={start}
    />
  );
  return c.html(htmlDocument(queue), described.status);
}

async function startFromForm(c: Context<ServiceEnv>, desk: ReviewDesk): Promise<Response> {
  const form = await checkedUpload(c, START_FILE_FIELDS);
  try {
    const input = await startProposalOf(form);
    const { threadId } = await desk.startProposal(input, c.var.reviewer);
    return c.redirect(`/reviews/${encodeURIComponent(threadId)}/progress`, 303);
  } catch (error) {
    if (isEvalgateError(error, "INVALID_INPUT")) return refusedStart(c, desk, form, error);
    throw error;
  }
}

export function registerProposalRoutes(pages: Hono<ServiceEnv>, desk: ReviewDesk): void {
  pages.get("/proposals/finished", allow("queue"), async (c) => {
    const request = requireValid(ThreadListRequestSchema.safeParse(c.req.query()), "the query");
    const page = await desk.finishedProposals(c.var.reviewer, request);
    const { name } = c.var.reviewer;
    const csrf = c.var.session.csrf;
    return c.html(
      htmlDocument(<FinishedPage reviewer={name} csrf={csrf} page={page} admin={isAdmin(c)} />),
    );
  });
  pages.post("/proposals", allow("startProposal"), (c) => startFromForm(c, desk));
}
