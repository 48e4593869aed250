/**
 * The review pages. They work without JavaScript: forms post, the service answers 303 to the page
 * to show next. Handlers read the session's reviewer, call one desk method, render.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { PageRequestSchema, wholeNumberParam } from "../../desk/requests.js";
import { MAX_CALIBRATION_DAYS, type ReviewDesk } from "../../desk/reviewDesk.js";
import { isEvalgateError } from "../../errors.js";
import { allow, mayReach } from "../access.js";
import { filterTraces, proposalMarkdownResponse, threadFeedRoutes } from "../api.js";
import type { AttemptGuard } from "../attemptLimits.js";
import type { ServiceEnv } from "../env.js";
import { describeError } from "../errors.js";
import { type EventStreamOptions, eventsSoFar } from "../events.js";
import { newSession, type SessionKeeper } from "../session.js";
import { queryParams, threadIdParam } from "../validation.js";
import { PAGE_SCRIPT, PROGRESS_SCRIPT, PROPOSAL_CSS, REVIEW_CSS } from "./assets.js";
import { CalibrationPage } from "./calibrationFigures.js";
import { DecidedFirstPage } from "./decidedFirst.js";
import { answerDecision, decidedFirstProps, pendingReview } from "./decisionRoute.js";
import {
  checkedForm,
  checkedUpload,
  pageResponse,
  readerOf,
  requireSignIn,
  withSession,
} from "./pageSession.js";
import { ProposalPage } from "./proposalView.js";
import { FinishedPage, QueuePage } from "./queue.js";
import { ReviewPage } from "./review.js";
import { SignInPage } from "./signIn.js";
import { START_FILE_FIELDS, startProposalOf, typedValues } from "./startProposalForm.js";
import { ThreadPage } from "./threadPage.js";

interface PageRoutesOptions {
  desk: ReviewDesk;
  sessions: SessionKeeper;
  events: EventStreamOptions;
  attempts: AttemptGuard;
}

const ProgressQuerySchema = z.object({ after: z.string().max(200).default("") });
const CalibrationQuerySchema = z.object({
  days: wholeNumberParam(1, MAX_CALIBRATION_DAYS).optional(),
});

function threadPath(threadId: string, rest = ""): string {
  return `/reviews/${encodeURIComponent(threadId)}${rest}`;
}

function registerAssets(pages: Hono<ServiceEnv>): void {
  const assets: Array<[string, string, string]> = [
    ["/assets/review.css", REVIEW_CSS + PROPOSAL_CSS, "text/css"],
    ["/assets/page.js", PAGE_SCRIPT, "text/javascript"],
    ["/assets/progress.js", PROGRESS_SCRIPT, "text/javascript"],
  ];
  for (const [path, text, type] of assets) {
    pages.get(path, (c) => {
      c.header("Cache-Control", "public, max-age=300");
      return c.body(text, 200, { "Content-Type": `${type}; charset=utf-8` });
    });
  }
}

function registerSignIn(pages: Hono<ServiceEnv>, options: PageRoutesOptions): void {
  const { desk, sessions, attempts } = options;
  pages.get("/signin", (c) => {
    sessions.save(c, c.var.session);
    return pageResponse(c, <SignInPage csrf={c.var.session.csrf} />);
  });
  pages.post("/signin", async (c) => {
    const form = await checkedForm(c);
    const token = (form.token ?? "").trim();
    const session = newSession();
    // Limited per client address (unknown tokens) and per account (sign-ins), on every replica.
    const known = await attempts.reviewerOf(c, token);
    if (known === undefined) {
      const page = <SignInPage csrf={c.var.session.csrf} error="That token is not valid." />;
      return pageResponse(c, page, 401);
    }
    await attempts.countSignIn(known.name);
    const sessionId = await desk.openSession(known, new Date(session.expiresAt));
    // A sign-in from before on this browser ends; the new session (and CSRF token) starts afresh.
    const before = c.var.session.sessionId;
    if (before !== undefined) await desk.endSession(before);
    sessions.save(c, { ...session, sessionId });
    return c.redirect("/reviews", 303);
  });
  pages.post("/signout", async (c) => {
    await checkedForm(c);
    const { sessionId } = c.var.session;
    // Ended in the store: a copy of the cookie kept from before is refused by every replica.
    if (sessionId !== undefined) await desk.endSession(sessionId);
    sessions.clear(c);
    return c.redirect("/signin", 303);
  });
}

/** The start form's post, handed to the same desk call as `POST /api/proposals`. */
async function startFromForm(c: Context<ServiceEnv>, desk: ReviewDesk): Promise<Response> {
  const form = await checkedUpload(c, START_FILE_FIELDS);
  try {
    const input = await startProposalOf(form);
    const { threadId } = await desk.startProposal(input, c.var.reviewer);
    return c.redirect(threadPath(threadId, "/progress"), 303);
  } catch (error) {
    if (!isEvalgateError(error, "INVALID_INPUT")) throw error;
    // The queue again, its start form filled in as sent and saying why it was refused.
    const described = describeError(error);
    const page = await desk.listReviews(c.var.reviewer, PageRequestSchema.parse({}));
    const start = { values: typedValues(form), error: described.body.error };
    const queue = <QueuePage {...readerOf(c)} page={page} start={start} />;
    return pageResponse(c, queue, described.status);
  }
}

function registerReviews(pages: Hono<ServiceEnv>, { desk }: PageRoutesOptions): void {
  pages.get("/reviews", allow("queue"), queryParams(PageRequestSchema), async (c) => {
    const page = await desk.listReviews(c.var.reviewer, c.req.valid("query"));
    return pageResponse(c, <QueuePage {...readerOf(c)} page={page} />);
  });
  pages.get("/proposals/finished", allow("queue"), queryParams(PageRequestSchema), async (c) => {
    const page = await desk.finishedProposals(c.var.reviewer, c.req.valid("query"));
    return pageResponse(c, <FinishedPage {...readerOf(c)} page={page} />);
  });
  pages.post("/proposals", allow("startProposal"), (c) => startFromForm(c, desk));
  pages.get("/reviews/:threadId", allow("review"), async (c) => {
    const threadId = threadIdParam(c);
    const review = await pendingReview(desk, threadId, c);
    if (review === undefined) {
      const props = await decidedFirstProps(c, desk, threadId, "", undefined);
      return pageResponse(c, <DecidedFirstPage {...props} visited />, 409);
    }
    const evaluationId = review.evaluation?.evaluationId;
    const traces =
      evaluationId === undefined || !mayReach("traces", c)
        ? undefined
        : filterTraces(await desk.threadTraces(threadId, c.var.reviewer), { evaluationId });
    return pageResponse(c, <ReviewPage {...readerOf(c)} review={review} traces={traces} />);
  });
  pages.post("/reviews/:threadId/decisions", allow("decide"), (c) => answerDecision(c, desk));
}

function registerThreads(pages: Hono<ServiceEnv>, { desk, events }: PageRoutesOptions): void {
  pages.get(
    "/reviews/:threadId/progress",
    allow("review"),
    queryParams(ProgressQuerySchema),
    async (c) => {
      const threadId = threadIdParam(c);
      const { after } = c.req.valid("query");
      // Events first, then the status: a review that becomes ready after this read reaches the
      // page's event stream; one that was ready before it is seen in the status below.
      const { lastSeq, now } = await eventsSoFar(desk, threadId, c.var.reviewer);
      const thread = await desk.threadStatus(threadId, c.var.reviewer);
      if (thread.status === "waiting") {
        const pending = (await pendingReview(desk, threadId, c))?.interruptId;
        if (pending !== undefined && pending !== after)
          return c.redirect(threadPath(threadId), 303);
      }
      const progress = {
        eventsUrl: `/threads/${encodeURIComponent(threadId)}/events?after=${lastSeq}`,
        selfUrl: threadPath(threadId, `/progress?after=${encodeURIComponent(after)}`),
        ...(now === undefined ? {} : { now }),
      };
      return pageResponse(c, <ThreadPage {...readerOf(c)} thread={thread} progress={progress} />);
    },
  );
  pages.get("/threads/:threadId", allow("thread"), async (c) => {
    const threadId = threadIdParam(c);
    const [thread, traces] = await Promise.all([
      desk.threadStatus(threadId, c.var.reviewer),
      mayReach("traces", c) ? desk.threadTraces(threadId, c.var.reviewer) : undefined,
    ]);
    return pageResponse(c, <ThreadPage {...readerOf(c)} thread={thread} traces={traces} />);
  });
  pages.get("/threads/:threadId/proposal", allow("proposal"), async (c) => {
    const document = await desk.threadProposal(threadIdParam(c), c.var.reviewer);
    return pageResponse(c, <ProposalPage {...readerOf(c)} document={document} />);
  });
  pages.get("/threads/:threadId/proposal.md", allow("proposal"), async (c) => {
    return proposalMarkdownResponse(c, await desk.threadProposal(threadIdParam(c), c.var.reviewer));
  });
  pages.post("/threads/:threadId/retry", allow("retry"), async (c) => {
    const threadId = threadIdParam(c);
    await checkedForm(c);
    await desk.retryThread(threadId, c.var.reviewer);
    return c.redirect(threadPath(threadId, "/progress"), 303);
  });
  pages.route("/threads", threadFeedRoutes(desk, events));
}

/** Administrators only (the desk answers 403 to anyone else); `?days=N` else the desk's default. */
function registerCalibration(pages: Hono<ServiceEnv>, { desk }: PageRoutesOptions): void {
  pages.get(
    "/calibration",
    allow("calibration"),
    queryParams(CalibrationQuerySchema),
    async (c) => {
      const overview = await desk.calibration(c.var.reviewer, c.req.valid("query").days);
      return pageResponse(c, <CalibrationPage {...readerOf(c)} overview={overview} />);
    },
  );
}

export function createPageRoutes(options: PageRoutesOptions): Hono<ServiceEnv> {
  const pages = new Hono<ServiceEnv>();
  registerAssets(pages);
  pages.use("*", withSession(options.sessions));
  pages.get("/", (c) => c.redirect("/reviews", 303));
  registerSignIn(pages, options);
  for (const path of [
    "/reviews",
    "/reviews/*",
    "/threads/*",
    "/calibration",
    "/proposals",
    "/proposals/*",
  ]) {
    pages.use(path, requireSignIn(options.desk));
  }
  registerReviews(pages, options);
  registerCalibration(pages, options);
  registerThreads(pages, options);
  return pages;
}
