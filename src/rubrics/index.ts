/**
 * `evalgate/rubrics`: versioned rubrics in the checkpoints' database (RubricRegistry), artifacts
 * reviewed against them (ArtifactRegistry.submitForReview), and the meta-rubric that scores a
 * rubric's structure like any other target (buildMetaRubric).
 */
export {
  type Artifact,
  ArtifactRegistry,
  type ArtifactRegistryOptions,
  ArtifactSchema,
  type ArtifactStatus,
  ArtifactStatusSchema,
  type ArtifactTypeDefinition,
  type NewArtifact,
} from "./artifactRegistry.js";
export * from "./errors.js";
export { buildMetaRubric } from "./metaRubric.js";
export { readRubricFile } from "./rubricConfig.js";
export {
  type RegisteredRubric,
  type RubricConfig,
  RubricRegistry,
  type RubricVersionInfo,
} from "./rubricRegistry.js";
