/**
 * `evalgate/checks`: deterministic scoring — the built-in point functions, a registry for
 * functions of your own, function criteria and JSON Schema criteria.
 */
export { CriterionMethodError, FunctionResolutionError, SchemaLoadError } from "./errors.js";
export { runFunctionCriterion } from "./functionCriterion.js";
export {
  isPointFunctionError,
  type PointFunction,
  type PointFunctionDefinition,
  type PointFunctionError,
  type PointFunctionResult,
  type PointFunctionSpec,
} from "./pointFunction.js";
export {
  checkPointFunctionArgs,
  isPointFunctionName,
  POINT_FUNCTIONS,
  type PointFunctionName,
} from "./pointFunctions.js";
export {
  type DeterministicFunction,
  type FunctionOrigin,
  FunctionRegistry,
  type FunctionRegistryOptions,
  type ResolvedFunction,
} from "./registry.js";
export {
  loadJsonSchema,
  runSchemaCriterion,
  type SchemaCriterionOptions,
} from "./schemaCriterion.js";
