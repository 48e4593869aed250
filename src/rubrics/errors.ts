import { EvalgateError, errorGuard } from "../errors.js";

/** No rubric of that id (or no such version of it) in the registry. */
export class RubricNotFoundError extends EvalgateError {
  override readonly name = "RubricNotFoundError";
  readonly rubricId: string;
  readonly version: string | undefined;

  constructor(rubricId: string, version?: string, where?: string) {
    const what =
      version === undefined
        ? `no rubric "${rubricId}"`
        : `no version "${version}" of rubric "${rubricId}"`;
    super("RUBRIC_NOT_FOUND", where === undefined ? what : `${what} in ${where}`);
    this.rubricId = rubricId;
    this.version = version;
  }
}

/** A rubric file (or a rubric given in code) that cannot be registered: what and where. */
export class RubricConfigError extends EvalgateError {
  override readonly name = "RubricConfigError";
  readonly source: string;
  /** What is wrong, without the source. */
  readonly detail: string;

  constructor(source: string, detail: string, options: { cause?: unknown } = {}) {
    super("RUBRIC_CONFIG_INVALID", `${source}: ${detail}`, options);
    this.source = source;
    this.detail = detail;
  }
}

/** No artifact of that id in the artifact registry. */
export class ArtifactNotFoundError extends EvalgateError {
  override readonly name = "ArtifactNotFoundError";
  readonly artifactId: string;

  constructor(artifactId: string) {
    super("ARTIFACT_NOT_FOUND", `no artifact "${artifactId}"`);
    this.artifactId = artifactId;
  }
}

/** An artifact that cannot be submitted for review (no rubric to review it against). */
export class ArtifactReviewError extends EvalgateError {
  override readonly name = "ArtifactReviewError";
  readonly artifactId: string;

  constructor(artifactId: string, message: string, options: { cause?: unknown } = {}) {
    super("ARTIFACT_REVIEW_FAILED", `artifact "${artifactId}": ${message}`, options);
    this.artifactId = artifactId;
  }
}

/** Every code the rubric and artifact registries' errors carry. */
export const RUBRICS_ERROR_CODES = [
  "RUBRIC_NOT_FOUND",
  "RUBRIC_CONFIG_INVALID",
  "ARTIFACT_NOT_FOUND",
  "ARTIFACT_REVIEW_FAILED",
] as const;

export const isRubricNotFoundError = errorGuard<RubricNotFoundError>("RUBRIC_NOT_FOUND");
export const isRubricConfigError = errorGuard<RubricConfigError>("RUBRIC_CONFIG_INVALID");
export const isArtifactNotFoundError = errorGuard<ArtifactNotFoundError>("ARTIFACT_NOT_FOUND");
export const isArtifactReviewError = errorGuard<ArtifactReviewError>("ARTIFACT_REVIEW_FAILED");
