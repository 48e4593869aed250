import type { CatalogPath } from "./errors.js";
import type { Catalog, Criterion } from "./model.js";

export type FindingSeverity = "error" | "warning" | "info";

/** One meta-rubric finding: what is wrong or doubtful, and where. */
export interface ValidationFinding {
  severity: FindingSeverity;
  check:
    | "criteria_coverage"
    | "criteria_independence"
    | "weight_distribution"
    | "threshold_reasonableness"
    | "level_ordering"
    | "guideline_bands"
    | "function_reference"
    | "prompt_template"
    | "json_schema";
  message: string;
  path: CatalogPath;
  /** The 1-based line in the catalog file, when the loader could find it. */
  line?: number | undefined;
}

export function criterionPath(
  catalog: Catalog,
  c: Criterion,
  ...rest: Array<string | number>
): CatalogPath {
  return ["criteria", catalog.criteria.indexOf(c), ...rest];
}
