/**
 * Who a request comes from, and limits on guessing: the JSON API's bearer token (the identity
 * never comes from a body) and the sign-in page's token, checked by the desk. Limits are counted in the review store so every replica counts together: unknown
 * tokens per client address (the connection's peer: behind a proxy, the proxy's), sign-ins per
 * account. A token names no account, so a wrong one counts against its address only.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import type { AttemptCount } from "../store/attemptRows.js";
import type { ServiceEnv } from "./env.js";
import { ServiceRequestError } from "./errors.js";

export interface AttemptLimits {
  /** Unknown tokens (API or sign-in page) one client address may send in a window. */
  perAddress: number;
  perAccount: number;
  /** The window, in seconds, from its first attempt. */
  windowSeconds: number;
}

export const DEFAULT_ATTEMPT_LIMITS: AttemptLimits = {
  perAddress: 20,
  perAccount: 30,
  windowSeconds: 15 * 60,
};

/** "unknown" without one, as in app.request. */
function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

function tooMany(count: AttemptCount, what: string): ServiceRequestError {
  const seconds = Math.max(1, Math.ceil((Date.parse(count.windowEndsAt) - Date.now()) / 1000));
  return new ServiceRequestError(
    "TOO_MANY_ATTEMPTS",
    `too many ${what}: try again in ${seconds} s`,
    undefined,
    seconds,
  );
}

export type AttemptGuard = ReturnType<typeof attemptGuard>;

/** Longest token accepted; anything longer is not one of ours and is not hashed. */
const MAX_TOKEN_CHARS = 512;

export function attemptGuard(desk: ReviewDesk, limits: AttemptLimits) {
  const addressKey = (c: Context) => `address:${clientAddress(c)}`;
  return {
    /**
     * The reviewer of a token (API or sign-in page). An address that sent too many unknown tokens
     * is refused (TOO_MANY_ATTEMPTS) before its token is looked at; an unknown one counts against it.
     */
    async reviewerOf(c: Context, token: string) {
      const count = await desk.attemptsOf(addressKey(c));
      if (count !== undefined && count.count >= limits.perAddress) {
        throw tooMany(count, "unknown tokens from this address");
      }
      const known = token.length > MAX_TOKEN_CHARS ? undefined : await desk.authenticate(token);
      if (known === undefined) await desk.countAttempt(addressKey(c), limits.windowSeconds);
      return known;
    },
    /** TOO_MANY_ATTEMPTS past the limit. */
    async countSignIn(account: string) {
      const count = await desk.countAttempt(`account:${account}`, limits.windowSeconds);
      if (count.count > limits.perAccount) throw tooMany(count, `sign-ins of ${account}`);
    },
  };
}

/** The JSON API's `Authorization: Bearer <token>`, checked on every request. */
export function requireBearer(attempts: AttemptGuard) {
  return createMiddleware<ServiceEnv>(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
    const reviewer =
      token === undefined || token.length > MAX_TOKEN_CHARS
        ? undefined
        : await attempts.reviewerOf(c, token);
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
