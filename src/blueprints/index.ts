/**
 * `evalgate/blueprints`: send every prompt of a blueprint to every candidate model and judge each
 * answer against its points. Loading a blueprint, running it, and the run's result with its
 * coverage scores.
 */
export {
  /** A blueprint: its prompts, each with the points a good answer should and should not make, the candidate models, a system prompt. */
  type Blueprint,
  /** One prompt of a blueprint with its points (should, should not, alternatives). */
  type BlueprintPrompt,
  /** The zod schema of BlueprintPrompt. */
  BlueprintPromptSchema,
  /** The zod schema of Blueprint (what loadBlueprint checks a file against). */
  BlueprintSchema,
  loadBlueprint,
  prepareBlueprint,
} from "./blueprint.js";
export {
  /** How a group of alternative points scored: each path's score, the deciding path, the group's score. */
  type AlternativeGroupResult,
  /** The zod schema of AlternativeGroupResult. */
  AlternativeGroupResultSchema,
  /** The result of runBlueprint: every candidate's answer to every prompt and its coverage scores (`evaluationResults.llmCoverageScores`). */
  type BlueprintRun,
  /** The zod schema of BlueprintRun (what `evalgate blueprint run` prints). */
  BlueprintRunSchema,
  /** How well one answer covers its prompt's points: each point's assessment and the average extent. */
  type CoverageResult,
  /** The zod schema of CoverageResult. */
  CoverageResultSchema,
  /** One point judged in one answer: how far it is covered (0–1), why, its multiplier and citation. */
  type PointAssessment,
  /** The zod schema of PointAssessment. */
  PointAssessmentSchema,
} from "./result.js";
export {
  type BlueprintProgress,
  /** The options of runBlueprint: candidate models, the judge, the seed, the timeout per call, the environment. */
  type RunBlueprintOptions,
  runBlueprint,
} from "./runBlueprint.js";
