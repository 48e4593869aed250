/** `evalgate/rubrics`: versioned rubrics, artifacts reviewed against them, the meta-rubric. */
export {
  /** An artifact in the registry: its type, name, content, the rubrics it is reviewed against, its status and evaluations. */
  type Artifact,
  ArtifactRegistry,
  /** The options of ArtifactRegistry: the rubric registry, the executor that judges, the artifact types. */
  type ArtifactRegistryOptions,
  ArtifactSchema,
  /** Where an artifact stands: `draft`, `pending_review`, `in_review`, `approved`, `needs_revision` or `review_failed`. */
  type ArtifactStatus,
  /** The zod schema of ArtifactStatus. */
  ArtifactStatusSchema,
  type ArtifactTypeDefinition,
  /** An artifact to submit: its type, name, content and, optionally, the rubrics to review it against. */
  type NewArtifact,
} from "./artifactRegistry.js";
export { buildMetaRubric } from "./metaRubric.js";
export { readRubricFile } from "./rubricConfig.js";
export {
  type RegisteredRubric,
  type RubricConfig,
  RubricRegistry,
  type RubricVersionInfo,
} from "./rubricRegistry.js";
