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
  /** Why this status, one line per reason. */
  reasons: string[];
}

/**
 * The funding status on the native scale of the status rules:
 * - REJECTED on a failed knockout, or when the native total is below `rejectBelow` (when set);
 * - FUNDABLE when the native total is at or above `fundable` and every gate holds;
 * - REVIEW_REQUIRED otherwise (below `fundable`, a critical criterion unmet, or something that
 *   must be evaluated was not).
 * With no weighted evidence the total is unknown: never FUNDABLE, never REJECTED by `rejectBelow`.
 */
export function decideFundingStatus(
  input: StatusInput,
  rules: StatusRules,
  gates: Pick<GateReport, "failures" | "knockoutFailed" | "held">,
): StatusDecision {
  const nativeTotal = input.zeroWeight ? undefined : fromUnit(input.overallScore, rules.scale);
  const withTotal = (status: FundingStatus, reasons: string[]): StatusDecision =>
    nativeTotal === undefined ? { status, reasons } : { status, nativeTotal, reasons };

  if (gates.knockoutFailed) {
    const knockouts = gates.failures.filter((f) => f.kind === "knockout_failed");
    return withTotal(
      "REJECTED",
      knockouts.map((f) => f.message),
    );
  }
  if (nativeTotal === undefined) {
    return { status: "REVIEW_REQUIRED", reasons: ["no weighted score to compare with the rules"] };
  }
  if (rules.rejectBelow !== undefined && nativeTotal < rules.rejectBelow) {
    return withTotal("REJECTED", [`total ${nativeTotal} is below ${rules.rejectBelow}`]);
  }
  if (nativeTotal < rules.fundable) {
    return withTotal("REVIEW_REQUIRED", [
      `total ${nativeTotal} is below the fundable threshold ${rules.fundable}`,
    ]);
  }
  if (!gates.held) {
    return withTotal(
      "REVIEW_REQUIRED",
      gates.failures.map((f) => f.message),
    );
  }
  return withTotal("FUNDABLE", [`total ${nativeTotal} reaches ${rules.fundable}`]);
}
