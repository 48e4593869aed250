/**
 * `evalgate/evaluators`: a criteria catalog as openevals-style evaluators (`{ key, score,
 * comment }` results), for LangSmith's `evaluate()` and anything else that calls evaluators with
 * `{ inputs, outputs, referenceOutputs }`.
 */
export {
  type CatalogEvaluator,
  type CatalogEvaluatorOptions,
  type CatalogEvaluators,
  type CatalogResultsEvaluator,
  createCatalogEvaluators,
} from "./catalogEvaluators.js";
export { defaultContent, defaultReference, type EvaluatorInput, textOf } from "./evaluatorInput.js";
export { type EvaluatorResult, toEvaluatorResults } from "./evaluatorResults.js";
export { DEFAULT_CACHED_EXAMPLES } from "./sharedEvaluation.js";
