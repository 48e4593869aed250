/**
 * Which model servers of a pool are taken out for a while, process-wide and keyed like the
 * ceilings (the server whatever its URL's spelling), so every evaluation of the process avoids a
 * server one of them found failing. A server that refused or dropped a connection, was not
 * reachable, answered a 5xx, cut an answer short, does not have the model, did not answer in time
 * (never sent its headers, or dripped its answer past the deadline) or gave an answer that could
 * not be used (empty, or not what the caller asked for) is out for the pool's cooldown (doubled
 * for each further failure in a row, at most 16 times it); one that answered 429 is out for its
 * Retry-After when it gave one. After its time out it is tried again; the first usable answer it
 * gives forgets its failures.
 */
import {
  isModelRateLimitError,
  isModelTimeoutError,
  isModelUnavailableError,
  type ModelCallError,
  type UnavailableReason,
} from "./errors.js";

/** How long a failing server is out by default (30 seconds). */
export const DEFAULT_SERVER_COOLDOWN_MS = 30_000;
/** The longest a server is taken out, as a multiple of the cooldown. */
const MAX_COOLDOWN_FACTOR = 16;

interface Health {
  /** Epoch ms until which the server is out. */
  outUntil: number;
  /** Failures in a row. */
  failures: number;
  /** Why it was taken out, for messages. */
  why: string;
}

const health = new Map<string, Health>();

/** The failures of a server (not of the prompt or the answer): its work goes to the others. */
const SERVER_FAULTS: ReadonlySet<UnavailableReason> = new Set<UnavailableReason>([
  "connection-refused",
  "connection-reset",
  "unreachable",
  "server-error",
  "incomplete-response",
  "model-not-found",
]);

/**
 * Whether a failure says the server (not the prompt) is at fault: its work goes to the others. A
 * timeout is one: another server of the pool may well answer in time.
 */
export function isServerFault(error: ModelCallError): boolean {
  if (isModelRateLimitError(error) || isModelTimeoutError(error)) return true;
  return isModelUnavailableError(error) && SERVER_FAULTS.has(error.reason);
}

/** Takes the server out: for its Retry-After (a 429 that gave one), else the growing cooldown. */
export function takeOut(key: string, error: ModelCallError, cooldownMs: number, now = Date.now()) {
  const failures = (health.get(key)?.failures ?? 0) + 1;
  const growing = cooldownMs * Math.min(MAX_COOLDOWN_FACTOR, 2 ** (failures - 1));
  const retryAfter = isModelRateLimitError(error) ? error.retryAfterMs : undefined;
  const outFor = retryAfter ?? growing;
  health.set(key, { outUntil: now + outFor, failures, why: error.message });
}

/** The server answered: it is in again, its failures forgotten. */
export function bringBack(key: string): void {
  health.delete(key);
}

/** When the server is out: until when and why; undefined when it is in. */
export function outOfPool(
  key: string,
  now = Date.now(),
): { until: number; why: string } | undefined {
  const found = health.get(key);
  if (found === undefined || found.outUntil <= now) return undefined;
  return { until: found.outUntil, why: found.why };
}

/** Forgets every server's state (for tests). */
export function resetServerHealth(): void {
  health.clear();
}
