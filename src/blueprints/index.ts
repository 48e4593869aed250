export {
  type Blueprint,
  type BlueprintPrompt,
  BlueprintPromptSchema,
  BlueprintSchema,
  loadBlueprint,
  prepareBlueprint,
} from "./blueprint.js";
export { averageCoverage } from "./coverage.js";
export { BLUEPRINT_ERROR_CODES, BlueprintError, isBlueprintError } from "./errors.js";
export {
  type AlternativeGroupResult,
  AlternativeGroupResultSchema,
  type BlueprintRun,
  BlueprintRunSchema,
  type CoverageResult,
  CoverageResultSchema,
  type PointAssessment,
  PointAssessmentSchema,
} from "./result.js";
export {
  type BlueprintProgress,
  type RunBlueprintOptions,
  runBlueprint,
} from "./runBlueprint.js";
