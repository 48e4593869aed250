/**
 * Set-up shared by the review-desk benchmarks (bench/service.ts, bench/state.ts): the sizes
 * option, latency samples and their percentiles, the process's peak RSS, and the scripted
 * zero-latency model the desk runs proposals with.
 */
import { createChatModel } from "../src/llm/chatModel.js";
import { scriptedProposalResponder } from "../tests/devserver/proposalResponder.js";
import { ScriptedChatModel } from "../tests/doubles/scriptedChatModel.js";

/** "1000,10000" → [1000, 10000]; what is not a positive number is dropped. */
export function parseSizes(text: string | undefined): number[] {
  return (text ?? "")
    .split(",")
    .map(Number)
    .filter((n) => n > 0);
}

/** The value below which p percent of the values lie (nearest rank); 0 when there are none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs the action and adds how long it took, in milliseconds, to the times. */
export async function timed(times: number[], action: () => Promise<unknown>): Promise<void> {
  const start = process.hrtime.bigint();
  await action();
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}

export const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

/** The process's peak RSS, sampled every few milliseconds until stopped. */
export interface RssSampler {
  /** The highest RSS seen since the start or the last restart, in bytes. */
  readonly peak: number;
  /** Starts a new peak from the RSS right now. */
  restart(): void;
  stop(): void;
}

export function sampleRss(everyMs = 5): RssSampler {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, everyMs);
  return {
    get peak() {
      return peak;
    },
    restart() {
      peak = process.memoryUsage().rss;
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** The zero-latency scripted model that writes and judges proposals (every score 0.85). */
export function scriptedProposalModel() {
  return createChatModel(new ScriptedChatModel({ responder: scriptedProposalResponder(0.85) }));
}
