import type { StatusRules } from "../criteria/model.js";
import type { GateReport } from "./gates.js";
import type { FundingStatus } from "./result.js";
import { fromUnit } from "./scale.js";

export interface StatusInput {
  /** Weighted 0–1 overall score. */
  overallScore: number;
  /** True when no weight entered the overall score (nothing weighted was evaluated). */
  zeroWeight: boolean;
}

export interface StatusDecision {
  status: FundingStatus;
  /** The overall score on the status scale; absent when there was no weighted evidence. */
  nativeTotal?: number;
}

/**
 * The funding status on the native scale of the status rules:
 * - REJECTED on a failed knockout, or when the native total is below `rejectBelow` (when set);
 * - FUNDABLE when the native total is at or above `fundable` and every gate holds;
 * - REVIEW_REQUIRED otherwise (below `fundable`, a critical criterion unmet, or something that
 *   must be evaluated was not).
 * With no weighted evidence the total is unknown: never FUNDABLE, never REJECTED by `rejectBelow`.
 * Why is said by the gates' failures and the summary, which shows the total against the rules.
 */
export function decideFundingStatus(
  input: StatusInput,
  rules: StatusRules,
  gates: Pick<GateReport, "knockoutFailed" | "held">,
): StatusDecision {
  const nativeTotal = input.zeroWeight ? undefined : fromUnit(input.overallScore, rules.scale);
  const status = fundingStatus(nativeTotal, rules, gates);
  return nativeTotal === undefined ? { status } : { status, nativeTotal };
}

function fundingStatus(
  nativeTotal: number | undefined,
  rules: StatusRules,
  gates: Pick<GateReport, "knockoutFailed" | "held">,
): FundingStatus {
  if (gates.knockoutFailed) return "REJECTED";
  if (nativeTotal === undefined) return "REVIEW_REQUIRED";
  if (rules.rejectBelow !== undefined && nativeTotal < rules.rejectBelow) return "REJECTED";
  return nativeTotal >= rules.fundable && gates.held ? "FUNDABLE" : "REVIEW_REQUIRED";
}
