import { checkPointFunctionArgs, isPointFunctionName } from "../checks/pointFunctions.js";
import type { CatalogPath } from "./errors.js";
import {
  type Catalog,
  type Criterion,
  GUIDELINE_BANDS,
  type Level,
  levelsOf,
  nativeScaleOf,
} from "./model.js";

export type FindingSeverity = "error" | "warning" | "info";

/** One meta-rubric finding: what is wrong or doubtful, and where. */
export interface ValidationFinding {
  severity: FindingSeverity;
  /** The meta-rubric check that found it. */
  check:
    | "criteria_coverage"
    | "criteria_independence"
    | "weight_distribution"
    | "threshold_reasonableness"
    | "level_ordering"
    | "guideline_bands"
    | "function_reference";
  message: string;
  path: CatalogPath;
}

const WEIGHT_TOLERANCE = 0.01;

/** Criteria whose weight enters the weighted total (knockout gates do not). */
export function scoredCriteria(catalog: Catalog): Criterion[] {
  return catalog.criteria.filter((c) => !c.knockout);
}

function criterionPath(
  catalog: Catalog,
  c: Criterion,
  ...rest: Array<string | number>
): CatalogPath {
  return ["criteria", catalog.criteria.indexOf(c), ...rest];
}

function checkCoverage(catalog: Catalog): ValidationFinding[] {
  if (catalog.criteria.length > 0) return [];
  return [
    {
      severity: "error",
      check: "criteria_coverage",
      message: "a catalog needs at least one criterion",
      path: ["criteria"],
    },
  ];
}

function checkIndependence(catalog: Catalog): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const fields = [
    ["id", "error"],
    ["title", "warning"],
    ["description", "warning"],
  ] as const;
  for (const [field, severity] of fields) {
    const seen = new Map<string, number>();
    catalog.criteria.forEach((c, index) => {
      const key = c[field].trim().toLowerCase();
      const earlier = seen.get(key);
      if (earlier === undefined) {
        seen.set(key, index);
        return;
      }
      findings.push({
        severity,
        check: "criteria_independence",
        message: `duplicate criterion ${field} ${JSON.stringify(c[field])} (also criteria[${earlier}])`,
        path: ["criteria", index, field],
      });
    });
  }
  return findings;
}

function weightSum(criteria: readonly Criterion[]): number {
  return criteria.reduce((sum, c) => sum + c.weight, 0);
}

function checkWeights(catalog: Catalog): ValidationFinding[] {
  const scored = scoredCriteria(catalog);
  if (scored.length === 0) return [];
  const sum = weightSum(scored);
  if (sum === 0) {
    return [
      {
        severity: "error",
        check: "weight_distribution",
        message: "the weights of the scored criteria sum to 0: nothing can be weighed",
        path: ["criteria"],
      },
    ];
  }
  if (Math.abs(sum - 1) <= WEIGHT_TOLERANCE) return [];
  return [
    {
      severity: "warning",
      check: "weight_distribution",
      message: `weights of the scored criteria sum to ${round(sum)}, not 1; normalised to sum to 1 (relative weights kept)`,
      path: ["criteria"],
    },
  ];
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** The best 0–1 score a criterion can reach. */
function maxScoreOf(c: Criterion): number {
  const levels = levelsOf(c.method);
  return levels === undefined ? 1 : Math.max(...levels.map((l) => l.score));
}

function minScoreOf(c: Criterion): number {
  const levels = levelsOf(c.method);
  return levels === undefined ? 0 : Math.min(...levels.map((l) => l.score));
}

function checkThresholds(catalog: Catalog): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const scored = scoredCriteria(catalog);
  const sum = weightSum(scored);
  if (scored.length > 0 && sum > 0) {
    const best = scored.reduce((acc, c) => acc + c.weight * maxScoreOf(c), 0) / sum;
    const worst = scored.reduce((acc, c) => acc + c.weight * minScoreOf(c), 0) / sum;
    const t = catalog.passingThreshold;
    if (t > best + 1e-9) {
      findings.push({
        severity: "error",
        check: "threshold_reasonableness",
        message: `passing threshold ${t} is unreachable: the best possible weighted score is ${round(best)}`,
        path: ["passingThreshold"],
      });
    } else if (t <= worst + 1e-9) {
      findings.push({
        severity: "error",
        check: "threshold_reasonableness",
        message: `passing threshold ${t} is trivial: even the worst possible weighted score (${round(worst)}) reaches it`,
        path: ["passingThreshold"],
      });
    } else if (t >= 0.95) {
      findings.push({
        severity: "warning",
        check: "threshold_reasonableness",
        message: `passing threshold ${t} is very high: almost nothing will pass`,
        path: ["passingThreshold"],
      });
    } else if (t < 0.3) {
      findings.push({
        severity: "warning",
        check: "threshold_reasonableness",
        message: `passing threshold ${t} is very low: weak content will pass`,
        path: ["passingThreshold"],
      });
    }
  }
  for (const c of catalog.criteria) {
    if (c.passingThreshold !== undefined && c.passingThreshold > maxScoreOf(c) + 1e-9) {
      findings.push({
        severity: "error",
        check: "threshold_reasonableness",
        message: `criterion passing threshold ${c.passingThreshold} is unreachable: its best score is ${maxScoreOf(c)}`,
        path: criterionPath(catalog, c, "passingThreshold"),
      });
    }
  }
  const rules = catalog.statusRules;
  if (rules !== undefined) {
    const { min, max } = rules.scale;
    if (rules.fundable > max || rules.fundable <= min) {
      findings.push({
        severity: "error",
        check: "threshold_reasonableness",
        message: `fundable threshold ${rules.fundable} must lie above ${min} and at most ${max} (the status scale)`,
        path: ["statusRules", "fundable"],
      });
    }
  }
  return findings;
}

function isOrdered(levels: readonly Level[]): boolean {
  const ascending = levels.every((l, i) => i === 0 || l.score > (levels[i - 1]?.score ?? 0));
  const descending = levels.every((l, i) => i === 0 || l.score < (levels[i - 1]?.score ?? 0));
  return ascending || descending;
}

function checkLevels(catalog: Catalog): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  for (const c of catalog.criteria) {
    const levels = levelsOf(c.method);
    if (levels === undefined) continue;
    const ids = new Set<string>();
    levels.forEach((level, index) => {
      if (ids.has(level.id)) {
        findings.push({
          severity: "error",
          check: "level_ordering",
          message: `duplicate level id ${JSON.stringify(level.id)}`,
          path: criterionPath(catalog, c, "method", "levels", index, "id"),
        });
      }
      ids.add(level.id);
    });
    if (!isOrdered(levels)) {
      const scores = levels.map((l) => `${l.id}=${l.score}`).join(", ");
      findings.push({
        severity: "error",
        check: "level_ordering",
        message: `levels must be ordered by score (lowest to highest), got ${scores}`,
        path: criterionPath(catalog, c, "method", "levels"),
      });
    }
  }
  return findings;
}

function checkGuidelines(catalog: Catalog): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  for (const c of catalog.criteria) {
    if (c.method.kind !== "score") continue;
    const guidelines = c.method.guidelines;
    if (guidelines === undefined) {
      const { min, max } = nativeScaleOf(c.method);
      findings.push({
        severity: "info",
        check: "guideline_bands",
        message: `no scoring guidelines: the judge gets only the ${min}–${max} scale`,
        path: criterionPath(catalog, c),
      });
      continue;
    }
    const texts = GUIDELINE_BANDS.map((band) => guidelines[band].trim().toLowerCase());
    if (new Set(texts).size < texts.length) {
      findings.push({
        severity: "warning",
        check: "guideline_bands",
        message: "two or more guideline bands have the same text: the judge cannot tell them apart",
        path: criterionPath(catalog, c, "method", "guidelines"),
      });
    }
  }
  return findings;
}

function checkFunctions(catalog: Catalog): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  for (const c of catalog.criteria) {
    if (c.method.kind !== "function") continue;
    const { name, args } = c.method;
    if (name.includes(":")) continue; // a `module:function` ref, resolved when it runs
    if (!isPointFunctionName(name)) {
      findings.push({
        severity: "error",
        check: "function_reference",
        message: `unknown point function ${JSON.stringify(name)} (a custom function needs a module:function ref)`,
        path: criterionPath(catalog, c, "method", "name"),
      });
      continue;
    }
    const problem = checkPointFunctionArgs(name, args);
    if (problem !== undefined) {
      findings.push({
        severity: "error",
        check: "function_reference",
        message: problem,
        path: criterionPath(catalog, c, "method", "args"),
      });
    }
  }
  return findings;
}

/**
 * Runs the meta-rubric over a catalog: at least one criterion; no duplicate ids (error) or
 * titles / descriptions (warning); scored weights summing to 1 within 0.01 (else a warning — the
 * loaders normalise them); a passing threshold that is neither trivial nor unreachable; levels
 * ordered by score; complete, distinct guideline bands; known point functions with fitting args.
 *
 * @example
 * for (const finding of validateCatalog(catalog)) console.log(finding.severity, finding.message);
 */
export function validateCatalog(catalog: Catalog): ValidationFinding[] {
  return [
    ...checkCoverage(catalog),
    ...checkIndependence(catalog),
    ...checkWeights(catalog),
    ...checkThresholds(catalog),
    ...checkLevels(catalog),
    ...checkGuidelines(catalog),
    ...checkFunctions(catalog),
  ];
}

/** Scales the scored criteria's weights to sum to 1 (knockout weights are left as they are). */
export function normaliseWeights(catalog: Catalog): Catalog {
  const sum = weightSum(scoredCriteria(catalog));
  if (sum === 0 || Math.abs(sum - 1) <= WEIGHT_TOLERANCE) return catalog;
  return {
    ...catalog,
    criteria: catalog.criteria.map((c) => (c.knockout ? c : { ...c, weight: c.weight / sum })),
  };
}
