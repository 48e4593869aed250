/**
 * A thread's progress as Server-Sent Events (`id` = seq, `event` = type, `data` = the event with
 * `text`, the line a reviewer reads). A reconnect sends Last-Event-ID and gets only what it missed.
 */
import { setTimeout } from "node:timers/promises";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { wholeNumberParam } from "../desk/requests.js";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import type { Reviewer } from "../store/reviewers.js";
import type { ThreadEvent } from "../store/threadEvents.js";
import { progressText } from "./statusWords.js";
import { requireValid } from "./validation.js";

export interface EventStreamOptions {
  pollMs: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** Longest life of one stream (the browser reconnects). */
  maxStreamMs: number;
  /** Aborted when the service shuts down: open streams end. */
  shutdown: AbortSignal;
}

/** Pages of events read at most for a progress page (the desk answers up to 500 a page). */
const MAX_EVENT_PAGES = 200;

/** A progress event says what a run is doing now; a new run, a review ready or the end clears it. */
function nowAfter(now: string | undefined, event: ThreadEvent): string | undefined {
  if (event.type === "progress") return event.message ?? now;
  return event.type === "stage" ? now : undefined;
}

/** Where a progress page starts following the thread, and what the run is doing now. */
export async function eventsSoFar(
  desk: ReviewDesk,
  threadId: string,
  reviewer: Reviewer,
): Promise<{ lastSeq: number; now?: string }> {
  let lastSeq = 0;
  let now: string | undefined;
  for (let page = 0; page < MAX_EVENT_PAGES; page++) {
    const batch = await desk.events(threadId, reviewer, lastSeq);
    if (batch.length === 0) break;
    for (const event of batch) {
      now = nowAfter(now, event);
      lastSeq = Math.max(lastSeq, event.seq);
    }
  }
  return now === undefined ? { lastSeq } : { lastSeq, now };
}

export const DEFAULT_EVENT_STREAM: Omit<EventStreamOptions, "shutdown"> = {
  pollMs: 500,
  heartbeatMs: 15_000,
  maxStreamMs: 10 * 60_000,
};

const SeqSchema = wholeNumberParam(0, Number.MAX_SAFE_INTEGER);

/** Where to start: Last-Event-ID (a reconnect), else `?after=`, else 0 (everything). */
function startingSeq(c: Context): number {
  const raw = c.req.header("last-event-id") ?? c.req.query("after") ?? "0";
  return requireValid(SeqSchema.safeParse(raw === "" ? "0" : raw), "after (an event number)");
}

/** The first read happens before the response starts, so a refusal is a JSON error with its status. */
export async function threadEventStream(
  c: Context,
  desk: ReviewDesk,
  threadId: string,
  reviewer: Reviewer,
  options: EventStreamOptions,
): Promise<Response> {
  let after = startingSeq(c);
  const first = await desk.events(threadId, reviewer, after);
  return streamSSE(c, async (stream) => {
    const stop = new AbortController();
    const endStream = () => stop.abort();
    stream.onAbort(endStream);
    options.shutdown.addEventListener("abort", endStream, { once: true });
    const deadline = Date.now() + options.maxStreamMs;
    let lastWrite = Date.now();
    let batch: ThreadEvent[] = first;
    try {
      while (!stop.signal.aborted && Date.now() < deadline) {
        for (const event of batch) {
          await stream.writeSSE({
            id: String(event.seq),
            event: event.type,
            data: JSON.stringify({ ...event, text: progressText(event) }),
          });
          after = Math.max(after, event.seq);
          lastWrite = Date.now();
        }
        if (batch.some((event) => event.type === "finished")) break;
        if (Date.now() - lastWrite >= options.heartbeatMs) {
          await stream.write(": still here\n\n");
          lastWrite = Date.now();
        }
        await setTimeout(options.pollMs, undefined, { signal: stop.signal }).catch(() => undefined);
        if (stop.signal.aborted) break;
        batch = await desk.events(threadId, reviewer, after);
      }
    } finally {
      options.shutdown.removeEventListener("abort", endStream);
    }
  });
}
