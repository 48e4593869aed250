import type { Catalog } from "../criteria/model.js";
import { weightedAverage } from "./aggregate.js";
import { assertConsistentResult, meetsThreshold } from "./consistency.js";
import { ScoringError } from "./errors.js";
import { evaluateGates, type GateFailure } from "./gates.js";
import type { CriterionResult, FundingStatus, Verdict } from "./result.js";
import { decideFundingStatus } from "./status.js";
import { decideVerdict } from "./verdict.js";

/** What the scoring core decides for a whole catalog from its criterion results. */
export interface CatalogScore {
  /** Weighted 0–1 over evaluated, non-knockout criteria (0 when no weight entered it). */
  overallScore: number;
  /** 0–1 per evaluated criterion id. */
  scores: Record<string, number>;
  verdict: Verdict;
  passed: boolean;
  /** The funding status, when the catalog has status rules. */
  status?: FundingStatus;
  /** The overall score on the status scale, when the catalog has status rules and evidence. */
  nativeTotal?: number;
  /** Ids of criteria that could not be evaluated. */
  notEvaluated: string[];
  warnings: string[];
  gateFailures: GateFailure[];
  /** The criterion results in catalog order. */
  criteria: CriterionResult[];
}

function matchToCatalog(
  catalog: Catalog,
  criterionResults: readonly CriterionResult[],
): CriterionResult[] {
  const byId = new Map<string, CriterionResult>();
  for (const result of criterionResults) {
    if (byId.has(result.id)) {
      throw new ScoringError(
        "more than one result for this criterion",
        {
          catalogId: catalog.id,
          criterionId: result.id,
        },
        { code: "CRITERION_RESULTS_MISMATCH" },
      );
    }
    byId.set(result.id, result);
  }
  const known = new Set(catalog.criteria.map((c) => c.id));
  for (const id of byId.keys()) {
    if (!known.has(id)) {
      throw new ScoringError(
        "result for a criterion the catalog does not have",
        {
          catalogId: catalog.id,
          criterionId: id,
        },
        { code: "CRITERION_RESULTS_MISMATCH" },
      );
    }
  }
  return catalog.criteria.map((criterion) => {
    const at = (field?: string) => ({
      catalogId: catalog.id,
      criterionId: criterion.id,
      ...(field !== undefined ? { field } : {}),
    });
    const result = byId.get(criterion.id);
    if (result === undefined) {
      throw new ScoringError(
        "no result for this criterion (a criterion that could not be evaluated still needs one, with evaluated: false)",
        at(),
        { code: "CRITERION_RESULTS_MISMATCH" },
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
        throw new ScoringError(
          `result says ${String(result[field])} but the catalog says ${String(expected[field])}`,
          at(field),
          { code: "CRITERION_RESULTS_MISMATCH" },
        );
      }
    }
    assertConsistentResult(result, catalog.id);
    return result;
  });
}

/**
 * Scores a catalog from one result per criterion: the weighted overall score (knockouts and
 * criteria that were not evaluated left out), the gates, the verdict and — when the catalog has
 * status rules — the funding status.
 *
 * `passed`: with status rules, exactly when the status is FUNDABLE; otherwise every gate holds,
 * some weight was evaluated and the overall score reaches the catalog's passing threshold.
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
  const common = {
    overallScore: average.overallScore,
    scores: average.scores,
    verdict,
    notEvaluated: average.notEvaluated,
    warnings: [...average.warnings, ...gates.warnings],
    gateFailures: gates.failures,
    criteria,
  };

  if (catalog.statusRules !== undefined) {
    const decision = decideFundingStatus(average, catalog.statusRules, gates);
    return {
      ...common,
      passed: decision.status === "FUNDABLE",
      status: decision.status,
      ...(decision.nativeTotal !== undefined ? { nativeTotal: decision.nativeTotal } : {}),
    };
  }
  const passed =
    gates.held &&
    !average.zeroWeight &&
    meetsThreshold(average.overallScore, catalog.passingThreshold);
  return { ...common, passed };
}
