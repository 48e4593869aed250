/**
 * The process-wide ceilings on calls in flight, one per model server, keyed by the server whatever
 * its URL's spelling (`http://gpu-box:11434`, serverKey.ts) or, for the embedded model, by its
 * file (`llama-cpp:/models/judge.gguf`). Every evaluation of the process, and every call within one
 * (criteria, retries, the injection guard, summaries), goes through the ceiling of the server it
 * calls; a later pool of judge servers can take a slot of each server from the same registry.
 *
 * A server's ceiling is the one its callers ask for (`maxInFlight`, EVALGATE_MAX_IN_FLIGHT, else 4
 * for an Ollama server: Ollama's OLLAMA_NUM_PARALLEL is a server setting that cannot be asked
 * for; EVALGATE_LLAMA_SEQUENCES for the embedded model); when callers ask for different values,
 * the latest call's value is in force. A ceiling nobody uses is dropped from the registry.
 */
import { type CallLane, FairCallCeiling, type SlotWait } from "./callCeiling.js";
import { serverKeyOf } from "./serverAddress.js";

/** The calls in flight to one Ollama server when nothing else is said (Ollama's usual slots). */
export const DEFAULT_MAX_IN_FLIGHT = 4;
/** The largest ceiling accepted. */
export const MAX_IN_FLIGHT_LIMIT = 256;
/** The longest a call waits for a free slot by default (10 minutes). */
export const DEFAULT_MAX_QUEUE_WAIT_MS = 600_000;

/** One server's ceiling: the registry key and the calls in flight it allows. */
export interface ServerSlots {
  readonly key: string;
  readonly maxInFlight: number;
}

const ceilings = new Map<string, FairCallCeiling>();

/** The ceiling of a server, made when first asked for, with the caller's limit in force. */
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

/** Runs one call to `server` in a slot of its ceiling, in `lane`'s turn. */
export function callInSlot<T>(
  server: ServerSlots,
  lane: CallLane,
  wait: SlotWait,
  call: () => Promise<T>,
): Promise<T> {
  return serverCeiling(server).run(lane, wait, call);
}

/**
 * What a server's ceiling holds now (for tests and diagnostics), by its key or any spelling of its
 * URL; undefined when unused.
 */
export function serverCallCounts(
  key: string,
): { limit: number; inFlight: number; queued: number } | undefined {
  const ceiling = ceilings.get(key) ?? ceilings.get(serverKeyOf(key));
  if (ceiling === undefined) return undefined;
  return { limit: ceiling.limit, inFlight: ceiling.inFlight, queued: ceiling.queued };
}
