import { runFunctionCriterion } from "../checks/functionCriterion.js";
import type { FunctionRegistry } from "../checks/registry.js";
import { runSchemaCriterion } from "../checks/schemaCriterion.js";
import type { Criterion } from "../criteria/model.js";
import type { CriterionOutcome } from "../scoring/outcome.js";

/** Runs a `function` or `schema` criterion: free, exact, no model involved. */
export function runDeterministicCriterion(
  criterion: Criterion,
  content: unknown,
  registry: FunctionRegistry,
  baseDir: string,
): Promise<CriterionOutcome> {
  if (criterion.method.kind === "schema") {
    return runSchemaCriterion(criterion, content, { baseDir });
  }
  return runFunctionCriterion(criterion, content, registry);
}
