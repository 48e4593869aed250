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
 * The verdict of a settled result, in the one vocabulary of gate outcomes:
 * - `pass` exactly when the result passed (whatever band the score is in: a catalog's threshold
 *   under 0.8 passes a 0.75);
 * - `fail` when it did not pass and the outcome is decided against it: the caller's validator
 *   rejected it, its funding status is REJECTED, a gate failed on a score, or the score is under
 *   the borderline band (0.6);
 * - `borderline` otherwise: not passed, but close — the score reaches the borderline band, or a
 *   forced human review or a gate that could not be decided holds it — and a human decides.
 */
function settledVerdict(
  scored: Verdict,
  passed: boolean,
  status: FundingStatus | undefined,
  rejected: boolean,
): Verdict {
  if (passed) return "pass";
  if (rejected || status === "REJECTED") return "fail";
  return scored === "pass" ? "borderline" : scored;
}

/**
 * The one rule for a final result: applies every override — a knockout or gate that failed, the
 * threshold, a funding status other than FUNDABLE, nothing evaluated (judge errors everywhere), a
 * caller's validator that rejected it, a forced human review — to `passed`, `verdict`, `status`
 * and the summary together. `passed` holds only when scoring passed it and nothing overrides it;
 * `status` is FUNDABLE exactly when the result passed (a FUNDABLE score that an override holds
 * becomes REVIEW_REQUIRED); the verdict is `pass` exactly when the result passed (settledVerdict);
 * the summary opens with the verdict's word (PASSED, BORDERLINE or FAILED) and says why a result
 * is held or rejected. Every path that finishes a result calls this, and nothing patches
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
