export { CriterionMethodError, FunctionResolutionError, SchemaLoadError } from "./errors.js";
export { runFunctionCriterion } from "./functionCriterion.js";
export { highestLevel, lowestLevel } from "./levels.js";
export { PATTERN_POINT_FUNCTIONS } from "./patternPointFunctions.js";
export {
  bindPointFunction,
  describeValue,
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
  formatSchemaError,
  loadJsonSchema,
  runSchemaCriterion,
  type SchemaCriterionOptions,
} from "./schemaCriterion.js";
export { countWords, STRUCTURE_POINT_FUNCTIONS } from "./structurePointFunctions.js";
export { TEXT_POINT_FUNCTIONS } from "./textPointFunctions.js";
