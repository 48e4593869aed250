/** The JSON API's bearer token, checked by the desk on every request; the identity never comes from a body. */
import { createMiddleware } from "hono/factory";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import type { AttemptGuard } from "./attemptLimits.js";
import type { ServiceEnv } from "./env.js";
import { ServiceRequestError } from "./errors.js";

/** Longest token accepted; anything longer is not one of ours and is not hashed. */
const MAX_TOKEN_CHARS = 512;

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  const token = match?.[1];
  return token !== undefined && token.length <= MAX_TOKEN_CHARS ? token : undefined;
}

/** An address that sent too many unknown tokens is refused before its token is looked at. */
export function requireBearer(desk: ReviewDesk, attempts: AttemptGuard) {
  return createMiddleware<ServiceEnv>(async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    if (token !== undefined) await attempts.checkAddress(c);
    const reviewer = token === undefined ? undefined : await desk.authenticate(token);
    if (token !== undefined && reviewer === undefined) await attempts.countFailure(c);
    if (reviewer === undefined) {
      throw new ServiceRequestError(
        "UNAUTHENTICATED",
        "a valid token is required: send Authorization: Bearer <token> (evalgate reviewers add)",
      );
    }
    c.set("reviewer", reviewer);
    await next();
  });
}
