/**
 * The JSON API. Each route validates its input, calls one desk method as the reviewer the bearer
 * token belongs to, and answers; errors are answered by the app's error handler.
 */
import { Hono } from "hono";
import { z } from "zod";
import { DecisionRequestSchema, PageRequestSchema, StartProposalSchema } from "../desk/requests.js";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import { ReviewerNameSchema } from "../graph/reviewInput.js";
import { allow } from "./access.js";
import { type AttemptGuard, requireBearer } from "./attemptLimits.js";
import type { ServiceEnv } from "./env.js";
import { UNAVAILABLE_RETRY_SECONDS } from "./errorResponse.js";
import { type EventStreamOptions, threadEventStream } from "./events.js";
import {
  ProposalQuerySchema,
  proposalMarkdownResponse,
  wantsMarkdown,
} from "./proposalResponse.js";
import { filterTraces, TraceFilterSchema } from "./traceFilter.js";
import { jsonBody, queryParams, threadIdParam } from "./validation.js";

const AssignReviewerSchema = z.strictObject({ name: ReviewerNameSchema });

export function createApiRoutes(
  desk: ReviewDesk,
  events: EventStreamOptions,
  attempts: AttemptGuard,
): Hono<ServiceEnv> {
  const api = new Hono<ServiceEnv>();

  api.get("/health", (c) => c.json({ status: "ok" }));
  api.get("/ready", async (c) => {
    const ready = await desk.ready().catch(() => false);
    if (!ready) c.header("Retry-After", String(UNAVAILABLE_RETRY_SECONDS));
    return c.json({ ready }, ready ? 200 : 503);
  });

  api.use("*", requireBearer(attempts));

  api.post("/proposals", allow("startProposal"), jsonBody(StartProposalSchema), async (c) => {
    const started = await desk.startProposal(c.req.valid("json"), c.var.reviewer);
    return c.json(started, 202);
  });

  api.post(
    "/proposals/:threadId/reviewers",
    allow("assignReviewers"),
    jsonBody(AssignReviewerSchema),
    async (c) => {
      const threadId = threadIdParam(c);
      const { name } = c.req.valid("json");
      await desk.assignReviewer(threadId, name, c.var.reviewer);
      return c.json({ threadId, reviewer: name });
    },
  );

  api.get("/reviews", allow("queue"), queryParams(PageRequestSchema), async (c) =>
    c.json(await desk.listReviews(c.var.reviewer, c.req.valid("query"))),
  );
  api.get("/reviews/:threadId", allow("review"), async (c) =>
    c.json(await desk.getReview(threadIdParam(c), c.var.reviewer)),
  );

  api.post(
    "/reviews/:threadId/decisions",
    allow("decide"),
    jsonBody(DecisionRequestSchema),
    async (c) => {
      const threadId = threadIdParam(c);
      const decided = await desk.decide(threadId, c.req.valid("json"), c.var.reviewer);
      return c.json(decided, 202);
    },
  );

  api.route("/threads", threadRoutes(desk, events));
  return api;
}

/** `/api/threads/:threadId…`: a thread's status, proposal, retry, traces and events. */
function threadRoutes(desk: ReviewDesk, events: EventStreamOptions): Hono<ServiceEnv> {
  const api = new Hono<ServiceEnv>();

  api.get("/:threadId", allow("thread"), async (c) =>
    c.json(await desk.threadStatus(threadIdParam(c), c.var.reviewer)),
  );
  api.get("/:threadId/proposal", allow("proposal"), queryParams(ProposalQuerySchema), async (c) => {
    const document = await desk.threadProposal(threadIdParam(c), c.var.reviewer);
    if (wantsMarkdown(c.req.valid("query").format, c.req.header("Accept"))) {
      return proposalMarkdownResponse(c, document);
    }
    return c.json(document);
  });

  api.post("/:threadId/retry", allow("retry"), async (c) =>
    c.json(await desk.retryThread(threadIdParam(c), c.var.reviewer), 202),
  );
  api.route("/", threadFeedRoutes(desk, events));
  return api;
}

/** A thread's judge calls (JSON) and live events: the same under /api and for the pages' session. */
export function threadFeedRoutes(desk: ReviewDesk, events: EventStreamOptions): Hono<ServiceEnv> {
  const feeds = new Hono<ServiceEnv>();
  feeds.get("/:threadId/traces", allow("traces"), queryParams(TraceFilterSchema), async (c) => {
    const traces = await desk.threadTraces(threadIdParam(c), c.var.reviewer);
    return c.json(filterTraces(traces, c.req.valid("query")));
  });
  feeds.get("/:threadId/events", allow("thread"), async (c) =>
    threadEventStream(c, desk, threadIdParam(c), c.var.reviewer, events),
  );
  return feeds;
}
