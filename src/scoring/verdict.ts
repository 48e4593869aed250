import type { Verdict } from "./result.js";
import { roundScore } from "./scale.js";

/** Verdict bands on the 0–1 overall score. */
export const VERDICT_BANDS = { pass: 0.8, borderline: 0.6 } as const;

/** pass ≥ 0.8, borderline ≥ 0.6, fail below. */
export function verdictForScore(score: number): Verdict {
  const s = roundScore(score);
  if (s >= VERDICT_BANDS.pass) return "pass";
  if (s >= VERDICT_BANDS.borderline) return "borderline";
  return "fail";
}

export interface VerdictGates {
  /** A gate failed on a score (knockout or critical criterion not met). */
  failed: boolean;
  /** A required or critical criterion could not be evaluated. */
  blocked: boolean;
  /** No weight entered the overall score, so it says nothing. */
  noEvidence?: boolean;
}

/**
 * The verdict: `fail` when a gate failed (e.g. a required rubric item unmet); otherwise the
 * band of the overall score. What could not be evaluated is neither a fail nor a pass: a blocked
 * gate caps the verdict at `borderline`, and with no weighted evidence at all it is `borderline`.
 */
export function decideVerdict(overallScore: number, gates: VerdictGates): Verdict {
  if (gates.failed) return "fail";
  if (gates.noEvidence === true) return "borderline";
  const band = verdictForScore(overallScore);
  if (gates.blocked && band === "pass") return "borderline";
  return band;
}
