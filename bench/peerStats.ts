/**
 * Figures of one system's run on the peer server, from the calls the server recorded, and the
 * median run of several.
 *
 * The lower bound is that of the calls actually made, with the prefill they actually paid (the
 * prefix cache's hits as they happened): no schedule of them on N slots ends before the longest
 * call, nor before all their service time spread evenly over the N slots.
 */
import type { PeerCallRecord } from "./peerServer.js";

export interface PeerRunStats {
  wallMs: number;
  /** max(longest call, Σ service / slots). */
  boundMs: number;
  requests: number;
  promptTokens: number;
  /** Prompt tokens the server evaluated (not found in a slot's cache). */
  prefillTokens: number;
  outputTokens: number;
  /** What the system said about the run (evalgate: the judge mode). */
  note: string;
}

export function runStats(
  records: readonly PeerCallRecord[],
  slots: number,
  wallMs: number,
  note: string,
): PeerRunStats {
  const sum = (pick: (r: PeerCallRecord) => number) => records.reduce((a, r) => a + pick(r), 0);
  const longest = records.reduce((a, r) => Math.max(a, r.serviceMs), 0);
  return {
    wallMs,
    boundMs: Math.max(longest, sum((r) => r.serviceMs) / slots),
    requests: records.length,
    promptTokens: sum((r) => r.promptTokens),
    prefillTokens: sum((r) => r.prefillTokens),
    outputTokens: sum((r) => r.outputTokens),
    note,
  };
}

/** The run with the median wall time (the lower middle one of an even count). */
export function medianRun(runs: readonly PeerRunStats[]): PeerRunStats | undefined {
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** One goal: a measured ratio and the most it may be. */
export interface PeerGoal {
  name: string;
  value: number;
  limit: number;
}

export function goalLine(goal: PeerGoal): string {
  const verdict = goal.value <= goal.limit ? "PASS" : "FAIL";
  return `${verdict}  ${goal.name}: ${goal.value.toFixed(3)}× (goal ≤ ${goal.limit}×)`;
}
