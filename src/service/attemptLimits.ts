/**
 * Limits on guessing: a client address that sent too many unknown tokens (to the API or the
 * sign-in page) in a window is answered 429 with `Retry-After` until the window ends, whatever it
 * sends, and an account that signed in too often in a window is refused further sign-ins the same
 * way. The counts are rows of the review store, so every replica on one database counts together.
 *
 * The client address is the connection's peer: behind a proxy it is the proxy's, and the limit is
 * then the proxy's too (set the limits for it). A token names no account (it is the only
 * credential, 32 random bytes), so a wrong token is counted against its address only.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import type { AttemptCount } from "../store/attemptRows.js";
import { ServiceRequestError } from "./errors.js";

export interface AttemptLimits {
  /** Unknown tokens (API or sign-in page) one client address may send in a window. */
  perAddress: number;
  /** Sign-ins one account may make in a window. */
  perAccount: number;
  /** The window, in seconds, from its first attempt. */
  windowSeconds: number;
}

export const DEFAULT_ATTEMPT_LIMITS: AttemptLimits = {
  perAddress: 20,
  perAccount: 30,
  windowSeconds: 15 * 60,
};

/** The client's address, as the connection has it ("unknown" without one, as in app.request). */
export function clientAddress(c: Context): string {
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

export interface AttemptGuard {
  /** TOO_MANY_ATTEMPTS when the request's address used up its tries. */
  checkAddress(c: Context): Promise<void>;
  /** Counts an unknown token from the request's address. */
  countFailure(c: Context): Promise<void>;
  /** Counts a sign-in of `account`; TOO_MANY_ATTEMPTS past the limit. */
  countSignIn(account: string): Promise<void>;
}

export function attemptGuard(desk: ReviewDesk, limits: AttemptLimits): AttemptGuard {
  const addressKey = (c: Context) => `address:${clientAddress(c)}`;
  return {
    async checkAddress(c) {
      const count = await desk.attemptsOf(addressKey(c));
      if (count !== undefined && count.count >= limits.perAddress) {
        throw tooMany(count, "unknown tokens from this address");
      }
    },
    async countFailure(c) {
      await desk.countAttempt(addressKey(c), limits.windowSeconds);
    },
    async countSignIn(account) {
      const count = await desk.countAttempt(`account:${account}`, limits.windowSeconds);
      if (count.count > limits.perAccount) throw tooMany(count, `sign-ins of ${account}`);
    },
  };
}
