/**
 * Process-wide state of each model server (keyed whatever its URL's spelling; the embedded model
 * by its file): its ceiling on calls in flight, the latest caller's limit in force, and its health
 * in a pool. A server at fault is out for the cooldown, doubled per failure in a row up to 16
 * times (a 429 for its Retry-After, never longer than that longest time out, so a server that
 * asks for a day is tried again within minutes); its first usable answer forgets its failures.
 */
import { type CallLane, FairCallCeiling, type SlotWait } from "./callCeiling.js";
import {
  isModelRateLimitError,
  isModelTimeoutError,
  isModelUnavailableError,
  ModelAbortedError,
  type ModelCallError,
  type ModelErrorContext,
  ModelUnavailableError,
  type UnavailableReason,
} from "./errors.js";
import { serverKeyOf } from "./serverList.js";

/** Ollama's usual parallel slots. */
export const DEFAULT_MAX_IN_FLIGHT = 4;
export const DEFAULT_MAX_QUEUE_WAIT_MS = 600_000;
export const DEFAULT_SERVER_COOLDOWN_MS = 30_000;
const MAX_COOLDOWN_FACTOR = 16;

export interface ServerSlots {
  readonly key: string;
  readonly maxInFlight: number;
}

const ceilings = new Map<string, FairCallCeiling>();

export function serverCeiling(server: ServerSlots): FairCallCeiling {
  let ceiling = ceilings.get(server.key);
  if (ceiling === undefined) {
    const made = new FairCallCeiling(server.maxInFlight, () => {
      if (ceilings.get(server.key) === made) ceilings.delete(server.key);
    });
    ceilings.set(server.key, made);
    ceiling = made;
  } else if (ceiling.limit !== server.maxInFlight) {
    ceiling.setLimit(server.maxInFlight);
  }
  return ceiling;
}

/** A slot wait that leaves on the signal and fails "busy" (not retried) after maxQueueWaitMs. */
export function slotWait(
  context: ModelErrorContext,
  limits: { maxInFlight: number; maxQueueWaitMs: number },
  signal: AbortSignal | undefined,
  ceiling = `at most ${limits.maxInFlight} calls are in flight to it at once (maxInFlight, EVALGATE_MAX_IN_FLIGHT)`,
): SlotWait {
  return {
    ...(signal === undefined ? {} : { signal }),
    maxWaitMs: limits.maxQueueWaitMs,
    onAbort: (reason) => new ModelAbortedError(context, reason),
    onWaitTooLong: (waitedMs, ahead) =>
      new ModelUnavailableError(
        "busy",
        `waited ${waitedMs} ms behind ${ahead} queued calls; ${ceiling}`,
        context,
      ),
  };
}

/** `call` in a slot of the server's ceiling, waiting (in `lane`) as slotWait says. */
export function callInSlot<T>(
  server: ServerSlots,
  lane: CallLane,
  wait: { context: ModelErrorContext; maxQueueWaitMs: number; signal: AbortSignal | undefined },
  call: () => Promise<T>,
): Promise<T> {
  const limits = { maxInFlight: server.maxInFlight, maxQueueWaitMs: wait.maxQueueWaitMs };
  return serverCeiling(server).run(lane, slotWait(wait.context, limits, wait.signal), call);
}

/** What a server's ceiling holds now, by its key or any spelling of its URL; undefined when unused. */
export function serverCallCounts(
  key: string,
): { limit: number; inFlight: number; queued: number } | undefined {
  const ceiling = ceilings.get(key) ?? ceilings.get(serverKeyOf(key));
  if (ceiling === undefined) return undefined;
  return { limit: ceiling.limit, inFlight: ceiling.inFlight, queued: ceiling.queued };
}

const health = new Map<string, { outUntil: number; failures: number; why: string }>();

const SERVER_FAULTS: ReadonlySet<UnavailableReason> = new Set<UnavailableReason>([
  "connection-refused",
  "connection-reset",
  "unreachable",
  "server-error",
  "incomplete-response",
  "model-not-found",
]);

export function isServerFault(error: ModelCallError): boolean {
  if (isModelRateLimitError(error) || isModelTimeoutError(error)) return true;
  return isModelUnavailableError(error) && SERVER_FAULTS.has(error.reason);
}

export function takeOut(key: string, error: ModelCallError, cooldownMs: number, now = Date.now()) {
  const failures = (health.get(key)?.failures ?? 0) + 1;
  const growing = cooldownMs * Math.min(MAX_COOLDOWN_FACTOR, 2 ** (failures - 1));
  const retryAfter = isModelRateLimitError(error) ? error.retryAfterMs : undefined;
  const outFor =
    retryAfter === undefined ? growing : Math.min(retryAfter, cooldownMs * MAX_COOLDOWN_FACTOR);
  health.set(key, { outUntil: now + outFor, failures, why: error.message });
}

export function bringBack(key: string): void {
  health.delete(key);
}

export function outOfPool(
  key: string,
  now = Date.now(),
): { until: number; why: string } | undefined {
  const found = health.get(key);
  if (found === undefined || found.outUntil <= now) return undefined;
  return { until: found.outUntil, why: found.why };
}

export function resetServerHealth(): void {
  health.clear();
}
