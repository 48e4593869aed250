import type { Catalog } from "../criteria/model.js";
import { deterministicSummary } from "./deterministicSummary.js";
import type { CriterionResult, FundingStatus, Verdict } from "./result.js";

/** What scoring decided from the criterion results alone (scoreCatalogResult's answer). */
export interface ScoredOutcome {
  overallScore: number;
  passed: boolean;
  verdict: Verdict;
  status?: FundingStatus;
  nativeTotal?: number;
  criteria: readonly CriterionResult[];
}

/** What can keep a result from passing whatever its scores say. */
export interface ResultOverrides {
  /**
   * Why a human must review the result before it can pass (possible prompt injection in the
   * content or its source documents, …). Any reason holds the result for review.
   */
  humanReview?: readonly string[];
  /** Set when a caller's validator rejected the result: its reason, or "" when it gave none. */
  validatorRejection?: string;
}

/** The fields of a result that must agree with one another, settled together. */
export interface SettledResult {
  passed: boolean;
  verdict: Verdict;
  status?: FundingStatus;
  nativeTotal?: number;
  /** The deterministic summary, written for the settled outcome. */
  feedback: string;
  humanReviewRequired: boolean;
  humanReviewReasons?: string[];
  validatorRejection?: string;
}

function nothingEvaluated(criteria: readonly CriterionResult[]): boolean {
  return criteria.length > 0 && criteria.every((c) => !c.evaluated);
}

/**
 * The verdict of a settled result. The score band (pass ≥ 0.8, borderline ≥ 0.6, fail below) is
 * bounded by the outcome so no field says pass while another says fail:
 * - a result that did not pass is never `pass`: a forced human review, a gate that could not be
 *   decided or a score under the threshold caps it at `borderline` (a human decides);
 * - a result the caller's validator rejected, or whose funding status is REJECTED, is `fail`;
 * - a result that passed is never `fail` (a threshold under the fail band lifts it to
 *   `borderline`).
 */
function settledVerdict(
  scored: Verdict,
  passed: boolean,
  status: FundingStatus | undefined,
  rejected: boolean,
): Verdict {
  if (rejected || status === "REJECTED") return "fail";
  if (!passed && scored === "pass") return "borderline";
  if (passed && scored === "fail") return "borderline";
  return scored;
}

/**
 * The one rule for a final result: applies every override — a knockout or gate that failed, the
 * threshold, a funding status other than FUNDABLE, nothing evaluated (judge errors everywhere), a
 * caller's validator that rejected it, a forced human review — to `passed`, `verdict`, `status`
 * and the summary together. `passed` holds only when scoring passed it and nothing overrides it;
 * `status` is never FUNDABLE for a result that did not pass (REVIEW_REQUIRED instead); the verdict
 * follows settledVerdict; the summary opens with PASSED or FAILED accordingly and says why a
 * result is held or rejected. Every path that finishes a result calls this, and nothing patches
 * these fields afterwards.
 */
export function settleResult(
  catalog: Catalog,
  scored: ScoredOutcome,
  overrides: ResultOverrides = {},
): SettledResult {
  const humanReviewReasons = [...(overrides.humanReview ?? [])];
  const humanReviewRequired = humanReviewReasons.length > 0;
  const rejected = overrides.validatorRejection !== undefined;
  const statusAllows = scored.status === undefined || scored.status === "FUNDABLE";
  const passed =
    scored.passed &&
    statusAllows &&
    !humanReviewRequired &&
    !rejected &&
    !nothingEvaluated(scored.criteria);
  const status = !passed && scored.status === "FUNDABLE" ? "REVIEW_REQUIRED" : scored.status;
  const settled: SettledResult = {
    passed,
    verdict: settledVerdict(scored.verdict, passed, status, rejected),
    ...(status === undefined ? {} : { status }),
    ...(scored.nativeTotal === undefined ? {} : { nativeTotal: scored.nativeTotal }),
    feedback: "",
    humanReviewRequired,
    ...(humanReviewRequired ? { humanReviewReasons } : {}),
    ...(rejected ? { validatorRejection: overrides.validatorRejection } : {}),
  };
  settled.feedback = deterministicSummary(catalog, {
    ...settled,
    overallScore: scored.overallScore,
    criteria: scored.criteria,
  });
  return settled;
}
