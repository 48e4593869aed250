/**
 * Limits on guessing, counted in the review store so every replica counts together: unknown
 * tokens per client address (the connection's peer: behind a proxy, the proxy's), sign-ins per
 * account. A token names no account, so a wrong one counts against its address only.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import type { AttemptCount } from "../store/attemptRows.js";
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

export function attemptGuard(desk: ReviewDesk, limits: AttemptLimits) {
  const addressKey = (c: Context) => `address:${clientAddress(c)}`;
  return {
    /** TOO_MANY_ATTEMPTS when the request's address used up its tries. */
    async checkAddress(c: Context) {
      const count = await desk.attemptsOf(addressKey(c));
      if (count !== undefined && count.count >= limits.perAddress) {
        throw tooMany(count, "unknown tokens from this address");
      }
    },
    /** Counts an unknown token from the request's address. */
    async countFailure(c: Context) {
      await desk.countAttempt(addressKey(c), limits.windowSeconds);
    },
    /** TOO_MANY_ATTEMPTS past the limit. */
    async countSignIn(account: string) {
      const count = await desk.countAttempt(`account:${account}`, limits.windowSeconds);
      if (count.count > limits.perAccount) throw tooMany(count, `sign-ins of ${account}`);
    },
  };
}
