import { checkPointFunctionArgs, isBuiltInPointFunctionName } from "../pointFunctions/builtIn.js";
import {
  normaliseWeights,
  roundForMessage,
  scoredCriteria,
  WEIGHT_TOLERANCE,
  weightSum,
} from "./catalogWeights.js";
import { checkDecodePrompts } from "./decodePromptCheck.js";
import { CatalogError, type CatalogPath } from "./errors.js";
import { checkJsonSchemas } from "./jsonSchemaCheck.js";
import { type Catalog, GUIDELINE_BANDS, type Level, levelsOf, nativeScaleOf } from "./model.js";
import { checkThresholds } from "./thresholdCheck.js";
import {
  criterionPath,
  type FindingSeverity,
  type ValidationFinding,
} from "./validationFinding.js";

export type { FindingSeverity, ValidationFinding } from "./validationFinding.js";

function checkCoverage(catalog: Catalog): ValidationFinding[] {
  if (catalog.criteria.length > 0) return [];
  const message = "a catalog needs at least one criterion";
  return [{ severity: "error", check: "criteria_coverage", message, path: ["criteria"] }];
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

function weightFinding(message: string, severity: FindingSeverity = "error"): ValidationFinding[] {
  return [{ severity, check: "weight_distribution", message, path: ["criteria"] }];
}

function checkWeights(catalog: Catalog): ValidationFinding[] {
  const scored = scoredCriteria(catalog);
  if (scored.length === 0) return [];
  const sum = weightSum(scored);
  if (!Number.isFinite(sum)) {
    return weightFinding(
      "the weights of the scored criteria are too large to add up (their sum is not a finite number)",
    );
  }
  if (sum === 0) {
    return weightFinding("the weights of the scored criteria sum to 0: nothing can be weighed");
  }
  if (Math.abs(sum - 1) <= WEIGHT_TOLERANCE) return [];
  return weightFinding(
    `weights of the scored criteria sum to ${roundForMessage(sum)}, not 1; normalised to sum to 1 (relative weights kept)`,
    "warning",
  );
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
    if (!isBuiltInPointFunctionName(name)) {
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
 * Runs the meta-rubric over a catalog (structure, weights, thresholds, levels, bands, point
 * functions, decode prompts, JSON Schemas).
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
    ...checkDecodePrompts(catalog),
    ...checkJsonSchemas(catalog),
  ];
}

export interface CatalogRefusal {
  message: string;
  path: CatalogPath;
}

export interface CatalogDecision {
  findings: ValidationFinding[];
  /** Set when the catalog has an error: no command or API may use it. */
  refusal?: CatalogRefusal;
  /** Weights normalised, warnings added (once). */
  catalog: Catalog;
}

/**
 * The one decision every way of loading a catalog takes; deciding on a catalog this returned
 * gives the same (no refusal, nothing new).
 *
 * @example
 * const { refusal, catalog: usable } = decideCatalog(catalog);
 */
export function decideCatalog(catalog: Catalog): CatalogDecision {
  const findings = validateCatalog(catalog);
  const errors = findings.filter((f) => f.severity === "error");
  const [first] = errors;
  if (first !== undefined) {
    const more = errors.length - 1;
    const tail = more > 0 ? ` (and ${more} more error${more > 1 ? "s" : ""})` : "";
    return { findings, refusal: { message: `${first.message}${tail}`, path: first.path }, catalog };
  }
  const warnings = new Set(catalog.warnings);
  for (const f of findings) if (f.severity === "warning") warnings.add(f.message);
  return { findings, catalog: { ...normaliseWeights(catalog), warnings: [...warnings] } };
}

/** decideCatalog for a catalog value: the catalog to use, or the CatalogError a file would give. */
export function requireUsableCatalog(
  catalog: Catalog,
  source: string = catalog.registryVersion === undefined
    ? (catalog.source ?? "<catalog>")
    : `${catalog.registryVersion} in the rubric registry`,
): Catalog {
  const decision = decideCatalog(catalog);
  if (decision.refusal === undefined) return decision.catalog;
  throw new CatalogError(decision.refusal.message, { source, path: decision.refusal.path });
}
