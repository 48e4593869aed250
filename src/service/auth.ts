/**
 * Bearer-token authentication for the JSON API: `Authorization: Bearer <token>` is checked by the
 * desk on every request (a revoked token stops working at once). The reviewer's identity comes
 * from the token only, never from a body.
 */
import { createMiddleware } from "hono/factory";
import type { ReviewDesk } from "../orchestrator/reviewDesk.js";
import type { ServiceEnv } from "./env.js";
import { ServiceRequestError } from "./errors.js";

/** Longest token accepted; anything longer is not one of ours and is not hashed. */
const MAX_TOKEN_CHARS = 512;

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  const token = match?.[1];
  return token !== undefined && token.length <= MAX_TOKEN_CHARS ? token : undefined;
}

export function requireBearer(desk: ReviewDesk) {
  return createMiddleware<ServiceEnv>(async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    const reviewer = token === undefined ? undefined : await desk.authenticate(token);
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
