/**
 * Lower bounds for the makespan of the model calls an evaluation made, from their recorded service
 * times. On N server slots no schedule of those calls can finish before the longest single call,
 * nor before all the service time spread evenly over the N slots:
 *
 *   bound = max(longest call, Σ service times / N)
 *
 * That is a valid lower bound for any schedule (it need not be reachable). Sequential evaluation
 * (concurrency 1) runs the calls one after another by design, so its own bound is Σ service times;
 * comparing its wall time with the N-slot bound shows what the design leaves on the table.
 */

export interface ServiceRecord {
  serviceMs: number;
  queueWaitMs: number;
  startMs: number;
  endMs: number;
  promptTokens: number;
  outputTokens: number;
}

export interface ScheduleStats {
  calls: number;
  sumServiceMs: number;
  longestServiceMs: number;
  /** max(longest call, Σ service / N). */
  slotBoundMs: number;
  /** Σ service: the bound of a one-at-a-time schedule. */
  sequentialBoundMs: number;
  /** First slot start to last end. */
  modelSpanMs: number;
  meanQueueWaitMs: number;
  maxQueueWaitMs: number;
  promptTokens: number;
  outputTokens: number;
}

/** The slot count is not a positive whole number. */
export class ScheduleSlotsError extends RangeError {
  constructor(readonly slots: number) {
    super(`schedule bound: slots must be a whole number ≥ 1, got ${slots}`);
    this.name = "ScheduleSlotsError";
  }
}

/** max(longest, Σ / slots): no schedule on `slots` parallel servers finishes earlier. */
export function slotLowerBound(serviceTimes: readonly number[], slots: number): number {
  if (!Number.isInteger(slots) || slots < 1) throw new ScheduleSlotsError(slots);
  const sum = serviceTimes.reduce((acc, t) => acc + t, 0);
  const longest = serviceTimes.reduce((acc, t) => Math.max(acc, t), 0);
  return Math.max(longest, sum / slots);
}

/** Σ service times: the bound of a schedule that serves one call at a time. */
export function sequentialLowerBound(serviceTimes: readonly number[]): number {
  return serviceTimes.reduce((acc, t) => acc + t, 0);
}

export function scheduleStats(records: readonly ServiceRecord[], slots: number): ScheduleStats {
  const times = records.map((r) => r.serviceMs);
  const waits = records.map((r) => r.queueWaitMs);
  const first = records.reduce((acc, r) => Math.min(acc, r.startMs), Number.POSITIVE_INFINITY);
  const last = records.reduce((acc, r) => Math.max(acc, r.endMs), 0);
  return {
    calls: records.length,
    sumServiceMs: sequentialLowerBound(times),
    longestServiceMs: times.reduce((acc, t) => Math.max(acc, t), 0),
    slotBoundMs: slotLowerBound(times, slots),
    sequentialBoundMs: sequentialLowerBound(times),
    modelSpanMs: records.length === 0 ? 0 : last - first,
    meanQueueWaitMs: records.length === 0 ? 0 : waits.reduce((a, w) => a + w, 0) / records.length,
    maxQueueWaitMs: waits.reduce((acc, w) => Math.max(acc, w), 0),
    promptTokens: records.reduce((acc, r) => acc + r.promptTokens, 0),
    outputTokens: records.reduce((acc, r) => acc + r.outputTokens, 0),
  };
}
