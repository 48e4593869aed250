/**
 * The JSON API. Each route validates its input, calls one desk method as the reviewer the bearer
 * token belongs to, and answers; errors are answered by the app's error handler.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { ThreadTraces } from "../desk/answers.js";
import { DecisionRequestSchema, PageRequestSchema, StartProposalSchema } from "../desk/requests.js";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import { ReviewerNameSchema } from "../graph/reviewInput.js";
import type { ProposalDocument } from "../proposal/document.js";
import { renderProposalMarkdown } from "../proposal/markdown.js";
import { allow } from "./access.js";
import { type AttemptGuard, requireBearer } from "./attemptLimits.js";
import type { ServiceEnv } from "./env.js";
import { UNAVAILABLE_RETRY_SECONDS } from "./errors.js";
import { type EventStreamOptions, threadEventStream } from "./events.js";
import { jsonBody, queryParams, threadIdParam } from "./validation.js";

const AssignReviewerSchema = z.strictObject({ name: ReviewerNameSchema });
const ProposalQuery = z.object({ format: z.enum(["json", "md"]).optional() });

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

  api.get("/threads/:threadId", allow("thread"), async (c) =>
    c.json(await desk.threadStatus(threadIdParam(c), c.var.reviewer)),
  );
  api.get(
    "/threads/:threadId/proposal",
    allow("proposal"),
    queryParams(ProposalQuery),
    async (c) => {
      const document = await desk.threadProposal(threadIdParam(c), c.var.reviewer);
      // `?format=md`, or Accept: text/markdown.
      const { format } = c.req.valid("query");
      const accept = c.req.header("Accept") ?? "";
      const markdown =
        format === undefined ? /(^|,)\s*text\/markdown\b/i.test(accept) : format === "md";
      return markdown ? proposalMarkdownResponse(c, document) : c.json(document);
    },
  );
  api.post("/threads/:threadId/retry", allow("retry"), async (c) =>
    c.json(await desk.retryThread(threadIdParam(c), c.var.reviewer), 202),
  );
  api.route("/threads", threadFeedRoutes(desk, events));
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

/** A download named `proposal-<thread>.md`, characters a file system minds as `_`. */
export function proposalMarkdownResponse(c: Context<ServiceEnv>, document: ProposalDocument) {
  const name = `proposal-${document.threadId.replace(/[^A-Za-z0-9._-]/g, "_")}.md`;
  return c.body(renderProposalMarkdown(document), 200, {
    "Content-Type": "text/markdown; charset=utf-8",
    "Content-Disposition": `attachment; filename="${name}"`,
  });
}

/* `?evaluationId=&traceId=` of the traces routes: one evaluation's calls, or one call. */
const TraceFilterSchema = z.object({
  evaluationId: z.string().min(1).max(200).optional(),
  traceId: z.string().min(1).max(200).optional(),
});

/** The thread's traces narrowed to the filter (evaluations left without a trace are dropped). */
export function filterTraces(
  traces: ThreadTraces,
  filter: z.infer<typeof TraceFilterSchema>,
): ThreadTraces {
  if (filter.evaluationId === undefined && filter.traceId === undefined) return traces;
  const evaluations = traces.evaluations
    .filter((e) => filter.evaluationId === undefined || e.evaluationId === filter.evaluationId)
    .map((e) => ({
      evaluationId: e.evaluationId,
      traces: e.traces.filter((t) => filter.traceId === undefined || t.id === filter.traceId),
    }))
    .filter((e) => e.traces.length > 0);
  return { threadId: traces.threadId, evaluations };
}
