import type { Catalog } from "../criteria/model.js";
import { deterministicSummary } from "./deterministicSummary.js";
import type { CriterionResult, FundingStatus, Verdict } from "./result.js";
import type { CatalogScore } from "./scoreCatalog.js";

type ScoredOutcome = Pick<
  CatalogScore,
  "overallScore" | "passed" | "verdict" | "status" | "nativeTotal" | "criteria"
>;

/** What can keep a result from passing whatever its scores say. */
export interface ResultOverrides {
  /** Why a human must review the result before it can pass; any reason holds it. */
  humanReview?: readonly string[];
  /** Set when a caller's validator rejected the result: its reason, or "" when it gave none. */
  validatorRejection?: string;
}

/** The fields of a result that must agree with one another, settled together. */
interface SettledResult {
  passed: boolean;
  verdict: Verdict;
  status?: FundingStatus;
  nativeTotal?: number;
  feedback: string;
  humanReviewRequired: boolean;
  humanReviewReasons?: string[];
  validatorRejection?: string;
}

function nothingEvaluated(criteria: readonly CriterionResult[]): boolean {
  return criteria.length > 0 && criteria.every((c) => !c.evaluated);
}

/**
 * `pass` exactly when the result passed (a threshold under 0.8 passes a 0.75); `fail` when it is
 * decided against (validator, REJECTED, a failed gate, under 0.6); else `borderline`: a human decides.
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
 * The one rule for a final result: every override (nothing evaluated, a validator's rejection, a
 * human review) applied to `passed`, `verdict`, `status` and the summary together. FUNDABLE held
 * by an override becomes REVIEW_REQUIRED. Nothing patches these fields afterwards.
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
