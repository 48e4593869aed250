/** A graph stage that reviews what a node wrote against registered rubrics (ArtifactRegistry). */

import type { RubricEvaluation } from "../engine/apis/rubricExecutor.js";
import type { Artifact, ArtifactRegistry, ArtifactStatus } from "../rubrics/artifactRegistry.js";

/** What the node writes to state. */
export interface ArtifactReviewOutcome {
  artifactId: string;
  status: ArtifactStatus;
  /** One per rubric, each naming the rubric id and version it used. */
  evaluations: RubricEvaluation[];
}

export interface ArtifactReviewNodeOptions {
  artifacts: ArtifactRegistry;
  /** The artifact type (its type definition gives the rubrics when `rubricIds` is absent). */
  artifactType: string;
  /** The state field whose value is reviewed. */
  contentField: string;
  /** The state field the outcome is written to (default "artifactReview"). */
  outcomeField?: string;
  rubricIds?: readonly string[];
  /** The artifact's name (default: the artifact type). */
  name?: string;
}

/**
 * The review node: each run stores the content as a new artifact, so every revision keeps its review.
 * @example
 * builder.addNode("review_quiz", createArtifactReviewNode({ artifacts, artifactType: "quiz", contentField: "quiz" }));
 */
export function createArtifactReviewNode(options: ArtifactReviewNodeOptions) {
  const field = options.outcomeField ?? "artifactReview";
  return async (state: Record<string, unknown>): Promise<Record<string, ArtifactReviewOutcome>> => {
    const artifact: Artifact = await options.artifacts.create({
      type: options.artifactType,
      name: options.name ?? options.artifactType,
      content: state[options.contentField],
      ...(options.rubricIds === undefined ? {} : { rubricIds: [...options.rubricIds] }),
    });
    const evaluations = await options.artifacts.submitForReview(artifact.id);
    const reviewed = await options.artifacts.require(artifact.id);
    return { [field]: { artifactId: artifact.id, status: reviewed.status, evaluations } };
  };
}

/** A router: `approved` goes to `next`, anything else to `revise`. */
export function routeOnArtifactReview(
  next: string,
  revise: string,
  outcomeField = "artifactReview",
) {
  return (state: Record<string, unknown>): string => {
    const outcome = state[outcomeField] as ArtifactReviewOutcome | undefined;
    return outcome?.status === "approved" ? next : revise;
  };
}
