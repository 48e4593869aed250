import type { Catalog, StatusRules } from "../criteria/model.js";
import { assertConsistentResult, isEvaluated, meetsThreshold } from "./consistency.js";
import { deterministicSummary } from "./deterministicSummary.js";
import { ScoringError } from "./errors.js";
import { evaluateGates, type GateFailure, type GateReport } from "./gates.js";
import type { CriterionResult, FundingStatus, Verdict } from "./result.js";
import { fromUnit, roundScore } from "./scale.js";

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

/** Verdict bands on the 0–1 overall score. */
export const VERDICT_BANDS = { pass: 0.8, borderline: 0.6 } as const;

/** pass ≥ 0.8, borderline ≥ 0.6, fail below. */
export function verdictForScore(score: number): Verdict {
  const s = roundScore(score);
  if (s >= VERDICT_BANDS.pass) return "pass";
  if (s >= VERDICT_BANDS.borderline) return "borderline";
  return "fail";
}

interface VerdictGates {
  /** A knockout or critical criterion was evaluated and not met. */
  failed: boolean;
  /** A required or critical criterion could not be evaluated. */
  blocked: boolean;
  /** No weight entered the overall score, so it says nothing. */
  noEvidence?: boolean;
}

/** `fail` when a gate failed; else the score's band, capped at `borderline` by what is unknown. */
export function decideVerdict(overallScore: number, gates: VerdictGates): Verdict {
  if (gates.failed) return "fail";
  if (gates.noEvidence === true) return "borderline";
  const band = verdictForScore(overallScore);
  if (gates.blocked && band === "pass") return "borderline";
  return band;
}

interface WeightedAverage {
  /** Σ w·s / Σ w over evaluated, non-knockout criteria; 0 when that weight is 0. */
  overallScore: number;
  /** 0–1 per evaluated criterion id (knockouts included: they were evaluated). */
  scores: Record<string, number>;
  /** Criteria that could not be evaluated: neither a zero nor a pass. */
  notEvaluated: string[];
  totalWeight: number;
  /** No weight entered the average, so overallScore says nothing. */
  zeroWeight: boolean;
  warnings: string[];
}

/** Knockout criteria are gates: their weight never enters the total. */
export function weightedAverage(results: readonly CriterionResult[]): WeightedAverage {
  const scores: Record<string, number> = {};
  const notEvaluated: string[] = [];
  let weighted = 0;
  let totalWeight = 0;
  for (const result of results) {
    if (!isEvaluated(result)) {
      notEvaluated.push(result.id);
      continue;
    }
    scores[result.id] = result.score;
    if (result.knockout) continue;
    weighted += result.weight * result.score;
    totalWeight += result.weight;
  }
  totalWeight = roundScore(totalWeight);
  if (totalWeight === 0) {
    const evaluatedCount = Object.keys(scores).length;
    const why =
      evaluatedCount === 0
        ? "no criterion could be evaluated"
        : "the evaluated criteria are knockouts or have weight 0";
    return {
      overallScore: 0,
      scores,
      notEvaluated,
      totalWeight: 0,
      zeroWeight: true,
      warnings: [`no weighted score: ${why}; overall score set to 0 and cannot pass`],
    };
  }
  const overallScore = Math.min(1, Math.max(0, roundScore(weighted / totalWeight)));
  return { overallScore, scores, notEvaluated, totalWeight, zeroWeight: false, warnings: [] };
}

/**
 * The funding status on the status rules' scale: REJECTED on a failed knockout or a total under
 * `rejectBelow`; FUNDABLE at `fundable` with every gate held; else REVIEW_REQUIRED. With no
 * weighted evidence the total is unknown: never FUNDABLE, never REJECTED by `rejectBelow`.
 */
export function decideFundingStatus(
  input: Pick<WeightedAverage, "overallScore" | "zeroWeight">,
  rules: StatusRules,
  gates: Pick<GateReport, "knockoutFailed" | "held">,
): { status: FundingStatus; nativeTotal?: number } {
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
/** What the scoring core decides for a whole catalog from its criterion results. */
export interface CatalogScore
  extends Pick<WeightedAverage, "overallScore" | "scores" | "notEvaluated" | "warnings"> {
  verdict: Verdict;
  passed: boolean;
  /** With status rules: the funding status, and the total on their scale when there is evidence. */
  status?: FundingStatus;
  nativeTotal?: number;
  gateFailures: GateFailure[];
  /** The criterion results in catalog order. */
  criteria: CriterionResult[];
}

function matchToCatalog(
  catalog: Catalog,
  criterionResults: readonly CriterionResult[],
): CriterionResult[] {
  const mismatch = (message: string, criterionId: string, field?: string) =>
    new ScoringError(
      message,
      { catalogId: catalog.id, criterionId, ...(field === undefined ? {} : { field }) },
      { code: "CRITERION_RESULTS_MISMATCH" },
    );
  const byId = new Map<string, CriterionResult>();
  for (const result of criterionResults) {
    if (byId.has(result.id)) throw mismatch("more than one result for this criterion", result.id);
    byId.set(result.id, result);
  }
  const known = new Set(catalog.criteria.map((c) => c.id));
  for (const id of byId.keys()) {
    if (!known.has(id)) throw mismatch("result for a criterion the catalog does not have", id);
  }
  return catalog.criteria.map((criterion) => {
    const result = byId.get(criterion.id);
    if (result === undefined) {
      throw mismatch(
        "no result for this criterion (a criterion that could not be evaluated still needs one, with evaluated: false)",
        criterion.id,
      );
    }
    const expected = {
      weight: criterion.weight,
      critical: criterion.critical || criterion.knockout,
      knockout: criterion.knockout,
      required: criterion.required,
    } as const;
    for (const field of ["weight", "critical", "knockout", "required"] as const) {
      if (result[field] !== expected[field]) {
        const says = `result says ${String(result[field])} but the catalog says ${String(expected[field])}`;
        throw mismatch(says, criterion.id, field);
      }
    }
    assertConsistentResult(result, catalog.id);
    return result;
  });
}

/**
 * Scores a catalog from one result per criterion. `passed`: with status rules, exactly when
 * FUNDABLE; otherwise every gate holds, some weight was evaluated and the threshold is reached.
 */
export function scoreCatalogResult(
  catalog: Catalog,
  criterionResults: readonly CriterionResult[],
): CatalogScore {
  const criteria = matchToCatalog(catalog, criterionResults);
  const average = weightedAverage(criteria);
  const gates = evaluateGates(criteria);
  const verdict = decideVerdict(average.overallScore, {
    failed: gates.failed,
    blocked: gates.blocked,
    noEvidence: average.zeroWeight,
  });
  const rules = catalog.statusRules;
  const decision = rules === undefined ? undefined : decideFundingStatus(average, rules, gates);
  const passed =
    decision === undefined
      ? gates.held &&
        !average.zeroWeight &&
        meetsThreshold(average.overallScore, catalog.passingThreshold)
      : decision.status === "FUNDABLE";
  return {
    overallScore: average.overallScore,
    scores: average.scores,
    verdict,
    notEvaluated: average.notEvaluated,
    warnings: [...average.warnings, ...gates.warnings],
    gateFailures: gates.failures,
    criteria,
    passed,
    ...decision,
  };
}
