import { EvalgateError } from "../errors.js";

const RUBRICS_ERROR_CODES = [
  "RUBRIC_NOT_FOUND",
  "RUBRIC_CONFIG_INVALID",
  "ARTIFACT_NOT_FOUND",
  "ARTIFACT_REVIEW_FAILED",
] as const;
export type RubricErrorCode = (typeof RUBRICS_ERROR_CODES)[number];

/** An error of the rubric and artifact registries; `code` says what. */
export class RubricError extends EvalgateError<RubricErrorCode> {}

/** No rubric of that id (or no such version of it) in the registry, or in `where`. */
export function rubricNotFound(rubricId: string, version?: string, where?: string): RubricError {
  const what =
    version === undefined
      ? `no rubric "${rubricId}"`
      : `no version "${version}" of rubric "${rubricId}"`;
  return new RubricError("RUBRIC_NOT_FOUND", where === undefined ? what : `${what} in ${where}`);
}

/** A rubric file (or a rubric given in code) that cannot be registered: what and where. */
export class RubricConfigError extends RubricError {
  readonly source: string;
  readonly detail: string;

  constructor(source: string, detail: string, options: { cause?: unknown } = {}) {
    super("RUBRIC_CONFIG_INVALID", `${source}: ${detail}`, options);
    this.source = source;
    this.detail = detail;
  }
}

export function artifactNotFound(artifactId: string): RubricError {
  return new RubricError("ARTIFACT_NOT_FOUND", `no artifact "${artifactId}"`);
}

export function artifactReviewFailed(
  artifactId: string,
  message: string,
  options: { cause?: unknown } = {},
): RubricError {
  return new RubricError("ARTIFACT_REVIEW_FAILED", `artifact "${artifactId}": ${message}`, options);
}
