/**
 * The load-time catalog checks (criteria/validate.ts) read as levels, so the meta-rubric can score
 * a rubric like any other target. A target that is not a rubric makes them throw.
 */
import { type Catalog, CatalogSchema } from "../criteria/model.js";
import { catalogOfLocatedValue } from "../criteria/parse.js";
import { readJson, readToon } from "../criteria/sourceText.js";
import { validateCatalog } from "../criteria/validate.js";
import type { ValidationFinding } from "../criteria/validationFinding.js";

export const META_CHECK_MODULE = "evalgate.meta";

function decodedRubric(target: unknown): unknown {
  if (typeof target !== "string") return target;
  const text = target.trimStart();
  return text.startsWith("{")
    ? readJson(target, "<rubric>").value
    : readToon(target, "<rubric>").value;
}

function rubricAsWritten(target: unknown): Catalog {
  const value = decodedRubric(target);
  const asCatalog = CatalogSchema.safeParse(value);
  if (asCatalog.success) return asCatalog.data;
  const located = { value, lineOf: () => undefined };
  return catalogOfLocatedValue(located, { source: "<rubric>", metaChecks: false }).catalog;
}

function findings(target: unknown, check: ValidationFinding["check"]): ValidationFinding[] {
  return validateCatalog(rubricAsWritten(target)).filter((f) => f.check === check);
}

const hasError = (list: readonly ValidationFinding[]) => list.some((f) => f.severity === "error");

const META_CHECKS: Readonly<Record<string, (target: unknown) => string>> = {
  checkCriteriaCoverage: (target) =>
    hasError(findings(target, "criteria_coverage")) ? "fail" : "pass",
  /** Duplicate ids fail; duplicate names or descriptions are partial. */
  checkCriteriaIndependence: (target) => {
    const found = findings(target, "criteria_independence");
    if (hasError(found)) return "fail";
    return found.length > 0 ? "partial" : "pass";
  },
  checkWeightDistribution: (target) =>
    findings(target, "weight_distribution").length > 0 ? "fail" : "pass",
  checkThreshold: (target) => {
    const errors = findings(target, "threshold_reasonableness").filter(
      (f) => f.severity === "error",
    );
    if (errors.some((f) => f.message.includes("trivial"))) return "too_low";
    return errors.length > 0 ? "too_high" : "pass";
  },
  checkLevelOrdering: (target) => (hasError(findings(target, "level_ordering")) ? "fail" : "pass"),
};

export function metaCheckOf(ref: string): ((target: unknown) => string) | undefined {
  const prefix = `${META_CHECK_MODULE}:`;
  if (!ref.startsWith(prefix)) return undefined;
  const name = ref.slice(prefix.length);
  return Object.hasOwn(META_CHECKS, name) ? META_CHECKS[name] : undefined;
}
