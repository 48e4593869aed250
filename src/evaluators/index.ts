/**
 * `evalgate/evaluators`: the other ways to judge, each a view of the one EvaluationResult. A
 * criteria catalog as openevals-style evaluators (`{ key, score, comment }` results) for
 * LangSmith's `evaluate()`; a project folder against a catalog (CriteriaEngine); free-form rubric
 * prompts (PromptEvaluator); levels rubrics (RubricExecutor); and the views that turn any result
 * into those shapes.
 */
export {
  CriteriaEngine,
  /** The options of CriteriaEngine: the judge, the projects folder, the catalog, the pipeline's features. */
  type CriteriaEngineOptions,
  /** CriteriaEngine's shape of one criterion's outcome: a view of the EvaluationResult. */
  type CriterionEvaluation,
  CriterionEvaluationSchema,
  type ProjectEvaluationOptions,
  toCriterionEvaluation,
} from "../engine/apis/criteriaEngine.js";
export {
  /** PromptEvaluator's result: a 0–1 score, verdict, reasoning, each rubric item's outcome; a view of the EvaluationResult. */
  type PromptEvaluation,
  /** What PromptEvaluator judges: the prompt, the response, and the expected outcome or rubric items. */
  type PromptEvaluationInput,
  PromptEvaluationInputSchema,
  /** The zod schema of PromptEvaluation. */
  PromptEvaluationSchema,
  PromptEvaluator,
  /** The options of PromptEvaluator: the judge, rubric items, the pipeline's features. */
  type PromptEvaluatorOptions,
  toPromptEvaluation,
} from "../engine/apis/promptEvaluator.js";
export {
  /** Per call of RubricExecutor.evaluate: the target's id and type, an abort signal. */
  type RubricEvaluateOptions,
  /** RubricExecutor's result: the level reached per criterion, scores, feedback, warnings; a view of the EvaluationResult. */
  type RubricEvaluation,
  RubricEvaluationSchema,
  RubricExecutor,
  /** The options of RubricExecutor: the judge, point functions, the base folder, timeout, seed, content limit. */
  type RubricExecutorOptions,
  type RubricSource,
  toRubricEvaluation,
} from "../engine/apis/rubricExecutor.js";
export {
  type CatalogEvaluator,
  /** The options of createCatalogEvaluators: evaluateContent's options, result keys, how to read content and reference. */
  type CatalogEvaluatorOptions,
  /** What createCatalogEvaluators returns: one evaluator per criterion, one for the overall score, one for every result at once, and their keys. */
  type CatalogEvaluators,
  type CatalogResultsEvaluator,
  createCatalogEvaluators,
  type EvaluatorInput,
} from "./catalogEvaluators.js";
export {
  type EvaluatorResult,
  toEvaluatorResults,
} from "./evaluatorResults.js";
