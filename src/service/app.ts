/** The review service as a Hono app: the JSON API under /api and the review pages, over a ReviewDesk. */
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import { terminalSafe } from "../untrusted/terminalText.js";
import { createApiRoutes } from "./api.js";
import { type AttemptLimits, attemptGuard, DEFAULT_ATTEMPT_LIMITS } from "./attemptLimits.js";
import type { ServiceEnv } from "./env.js";
import { describeError, ServiceRequestError } from "./errors.js";
import { DEFAULT_EVENT_STREAM, type EventStreamOptions } from "./events.js";
import { renderErrorPage, type SignedIn } from "./pages/layout.js";
import { createPageRoutes } from "./pages/routes.js";
import { noStore, sameOriginWrites, securityHeaders } from "./securityHeaders.js";
import { createSessionKeeper, sessionKey } from "./session.js";

/** Largest request body: two texts of MAX_TEXT_CHARS with room for multi-byte characters. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface ServiceAppOptions {
  desk: ReviewDesk;
  /** Seals page sessions; replicas behind one address need the same secret. Random when unset. */
  sessionSecret?: string;
  events?: Partial<EventStreamOptions>;
  /** Where unexpected errors are reported (default: stderr). */
  logError?: (error: unknown) => void;
  /** Unknown tokens per client address and sign-ins per account (DEFAULT_ATTEMPT_LIMITS). */
  attemptLimits?: Partial<AttemptLimits>;
}

function defaultLogError(error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(terminalSafe(`evalgate serve: ${text}\n`));
}

/** When the sign-in check ran before the error. */
function signedIn(c: Context<ServiceEnv>): SignedIn | undefined {
  const reviewer = c.get("reviewer") as ServiceEnv["Variables"]["reviewer"] | undefined;
  const session = c.get("session") as ServiceEnv["Variables"]["session"] | undefined;
  if (reviewer === undefined || session === undefined) return undefined;
  return { reviewer: reviewer.name, csrf: session.csrf };
}

export function createServiceApp(options: ServiceAppOptions): Hono<ServiceEnv> {
  const events: EventStreamOptions = {
    ...DEFAULT_EVENT_STREAM,
    shutdown: new AbortController().signal,
    ...options.events,
  };
  const logError = options.logError ?? defaultLogError;
  const sessions = createSessionKeeper(sessionKey(options.sessionSecret));
  const attempts = attemptGuard(options.desk, {
    ...DEFAULT_ATTEMPT_LIMITS,
    ...options.attemptLimits,
  });
  const app = new Hono<ServiceEnv>();

  app.use("*", securityHeaders());
  app.use("*", noStore());
  app.use("*", sameOriginWrites());
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ServiceRequestError(
          "PAYLOAD_TOO_LARGE",
          `the request body is larger than ${MAX_BODY_BYTES} bytes`,
        );
      },
    }),
  );
  app.route("/api", createApiRoutes(options.desk, events, attempts));
  app.route("/", createPageRoutes({ desk: options.desk, sessions, events, attempts }));

  const answerError = (error: unknown, c: Context<ServiceEnv>) => {
    const described = describeError(error);
    if (described.unexpected) logError(error);
    if (described.status === 401) c.header("WWW-Authenticate", 'Bearer realm="evalgate"');
    if (described.retryAfter !== undefined) c.header("Retry-After", String(described.retryAfter));
    if (c.req.path.startsWith("/api/") || c.req.path === "/api") {
      return c.json(described.body, described.status);
    }
    return c.html(
      renderErrorPage(described.status, described.body.error, signedIn(c)),
      described.status,
    );
  };
  app.notFound((c) => answerError(new ServiceRequestError("ROUTE_NOT_FOUND", "no such route"), c));
  app.onError(answerError);
  return app;
}
