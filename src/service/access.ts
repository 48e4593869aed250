/**
 * Who may reach what: one rule per resource, every route of the API and the pages listed under
 * it (docs/security.md shows the same table). `assigned`: an admin, or a reviewer assigned to the
 * thread — the desk checks the assignment on every call that names a thread.
 */
import { createMiddleware } from "hono/factory";
import { forbidden } from "../desk/errors.js";
import type { ServiceEnv } from "./env.js";

export type Audience = "anyone" | "signed-in" | "assigned" | "admin";

interface AccessRule {
  audience: Audience;
  /** What it lets one do, as "ana may not <action>" reads. */
  action: string;
  /** Its routes under /api, `METHOD /path`. */
  api: readonly string[];
  pages: readonly string[];
}

export const ACCESS_RULES = {
  health: {
    audience: "anyone",
    action: "ask whether the service is up and ready",
    api: ["GET /health", "GET /ready"],
    pages: [],
  },
  assets: {
    audience: "anyone",
    action: "load the pages' style sheet and scripts",
    api: [],
    pages: ["GET /assets/review.css", "GET /assets/page.js", "GET /assets/progress.js"],
  },
  signIn: {
    audience: "anyone",
    action: "sign in and out",
    api: [],
    pages: ["GET /", "GET /signin", "POST /signin", "POST /signout"],
  },
  queue: {
    audience: "signed-in",
    action:
      "list the review queue and the finished proposals (a reviewer sees the threads assigned to them)",
    api: ["GET /reviews"],
    pages: ["GET /reviews", "GET /proposals/finished"],
  },
  startProposal: {
    audience: "signed-in",
    action: "start a proposal",
    api: ["POST /proposals"],
    pages: ["POST /proposals"],
  },
  assignReviewers: {
    audience: "admin",
    action: "assign reviewers to a thread",
    api: ["POST /proposals/:threadId/reviewers"],
    pages: [],
  },
  review: {
    audience: "assigned",
    action: "open a pending review, and the page that waits for the next one",
    api: ["GET /reviews/:threadId"],
    pages: ["GET /reviews/:threadId", "GET /reviews/:threadId/progress"],
  },
  decide: {
    audience: "assigned",
    action: "decide a review",
    api: ["POST /reviews/:threadId/decisions"],
    pages: ["POST /reviews/:threadId/decisions"],
  },
  thread: {
    audience: "assigned",
    action: "see a thread's status, history and live events",
    api: ["GET /threads/:threadId", "GET /threads/:threadId/events"],
    pages: ["GET /threads/:threadId", "GET /threads/:threadId/events"],
  },
  proposal: {
    audience: "assigned",
    action: "read the proposal document",
    api: ["GET /threads/:threadId/proposal"],
    pages: ["GET /threads/:threadId/proposal", "GET /threads/:threadId/proposal.md"],
  },
  retry: {
    audience: "assigned",
    action: "retry a failed thread",
    api: ["POST /threads/:threadId/retry"],
    pages: ["POST /threads/:threadId/retry"],
  },
  traces: {
    audience: "admin",
    action:
      "see the judge calls (prompts, raw answers, model settings, the model server's address)",
    api: ["GET /threads/:threadId/traces"],
    pages: ["GET /threads/:threadId/traces"],
  },
  calibration: {
    audience: "admin",
    action: "see the calibration report",
    api: [],
    pages: ["GET /calibration"],
  },
} as const satisfies Record<string, AccessRule>;

export type Resource = keyof typeof ACCESS_RULES;

/** Whether the signed-in reviewer's role is admitted by the rule (assignment aside). */
export function mayReach(resource: Resource, c: { var: ServiceEnv["Variables"] }): boolean {
  return ACCESS_RULES[resource].audience !== "admin" || c.var.reviewer.role === "admin";
}

/** FORBIDDEN for a role the rule of `resource` does not admit. */
export function allow(resource: Resource) {
  return createMiddleware<ServiceEnv>(async (c, next) => {
    if (!mayReach(resource, c)) throw forbidden(ACCESS_RULES[resource].action, c.var.reviewer.name);
    await next();
  });
}
