/**
 * The pages' proposal routes: the finished proposals (a tab of the queue), and the start form's
 * post, handed to the same desk call as `POST /api/proposals`.
 */
import type { Context, Hono } from "hono";
import { PageRequestSchema } from "../../desk/requests.js";
import type { ReviewDesk } from "../../desk/reviewDesk.js";
import { isEvalgateError } from "../../errors.js";
import { allow } from "../access.js";
import type { ServiceEnv } from "../env.js";
import { describeError } from "../errorResponse.js";
import { queryParams } from "../validation.js";
import { checkedUpload, pageResponse, readerOf } from "./pageSession.js";
import { FinishedPage, QueuePage } from "./queue.js";
import { START_FILE_FIELDS, startProposalOf, typedValues } from "./startProposalPost.js";

async function startFromForm(c: Context<ServiceEnv>, desk: ReviewDesk): Promise<Response> {
  const form = await checkedUpload(c, START_FILE_FIELDS);
  try {
    const input = await startProposalOf(form);
    const { threadId } = await desk.startProposal(input, c.var.reviewer);
    return c.redirect(`/reviews/${encodeURIComponent(threadId)}/progress`, 303);
  } catch (error) {
    if (!isEvalgateError(error, "INVALID_INPUT")) throw error;
    // The queue again, its start form filled in as sent and saying why it was refused.
    const described = describeError(error);
    const page = await desk.listReviews(c.var.reviewer, PageRequestSchema.parse({}));
    const start = { values: typedValues(form), error: described.body.error };
    return pageResponse(
      c,
      <QueuePage {...readerOf(c)} page={page} start={start} />,
      described.status,
    );
  }
}

export function registerProposalRoutes(pages: Hono<ServiceEnv>, desk: ReviewDesk): void {
  pages.get("/proposals/finished", allow("queue"), queryParams(PageRequestSchema), async (c) => {
    const page = await desk.finishedProposals(c.var.reviewer, c.req.valid("query"));
    return pageResponse(c, <FinishedPage {...readerOf(c)} page={page} />);
  });
  pages.post("/proposals", allow("startProposal"), (c) => startFromForm(c, desk));
}
