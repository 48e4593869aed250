/**
 * `evalgate/checks`: deterministic scoring — the built-in point functions (reference-based ones
 * among them: ROUGE-L, Levenshtein, embedding similarity), a registry for functions of your own,
 * function criteria and JSON Schema criteria.
 */

export {
  checkPointFunctionArgs,
  isBuiltInPointFunctionName,
  isModelPointFunctionName,
  isPointFunctionName,
  MODEL_POINT_FUNCTIONS,
  type ModelPointFunctionName,
  POINT_FUNCTIONS,
  type PointFunctionName,
} from "../pointFunctions/builtIn.js";
export {
  type AsyncPointFunction,
  type AsyncPointFunctionDefinition,
  isPointFunctionError,
  type PointFunction,
  type PointFunctionContext,
  type PointFunctionDefinition,
  type PointFunctionError,
  type PointFunctionResult,
  type PointFunctionSpec,
  type TextEmbedder,
} from "../pointFunctions/contract.js";
export { MAX_EMBED_INPUT_CHARS } from "../pointFunctions/embedding.js";
export {
  type LevenshteinSimilarity,
  levenshteinSimilarity,
  MAX_LEVENSHTEIN_CELLS,
  MAX_ROUGE_CELLS,
  type RougeL,
  rougeL,
  wordsOf,
} from "../pointFunctions/similarity.js";
export {
  createOllamaEmbedder,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_EMBEDDING_TIMEOUT_MS,
  type EmbeddingServerOptions,
  MAX_EMBED_RESPONSE_BYTES,
  MAX_EMBEDDING_DIMENSIONS,
} from "./embeddings.js";
export {
  CheckError,
  type CheckErrorCode,
  FunctionResolutionError,
  isCheckError,
} from "./errors.js";
export { runFunctionCriterion } from "./functionCriterion.js";
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
