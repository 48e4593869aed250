import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  type RubricEvaluation,
  RubricEvaluationSchema,
  type RubricExecutor,
} from "../engine/apis/rubricExecutor.js";
import { storedJson } from "../store/database.js";
import {
  type ArtifactRow,
  type ArtifactStatus,
  ArtifactStatusSchema,
  openRegistryStore,
  type RegistryStore,
  type RegistryStoreOptions,
} from "../store/registryStore.js";
import { artifactNotFound, artifactReviewFailed, RubricConfigError } from "./errors.js";
import type { RubricRegistry } from "./rubricRegistry.js";

export { type ArtifactStatus, ArtifactStatusSchema };

export const MAX_ARTIFACT_BYTES = 4 * 1024 * 1024;

/** An artifact: content of a type, the rubrics it is reviewed against, where its review stands. */
export const ArtifactSchema = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  content: z.unknown(),
  rubricIds: z.array(z.string()),
  status: ArtifactStatusSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The evaluations of its latest review, one per rubric, in order. */
  evaluations: z.array(RubricEvaluationSchema),
});
export type Artifact = z.infer<typeof ArtifactSchema>;

/** A type of artifact and the rubrics its artifacts are reviewed against by default. */
export interface ArtifactTypeDefinition {
  id: string;
  rubrics: string[];
}

export interface NewArtifact {
  type: string;
  name: string;
  content: unknown;
  /** Default: the type definition's rubrics. */
  rubricIds?: string[];
}

export interface ArtifactRegistryOptions {
  rubricRegistry: RubricRegistry;
  rubricExecutor: RubricExecutor;
  typeDefinitions?: Readonly<Record<string, ArtifactTypeDefinition>>;
}

/** The model error of an evaluation none of whose model calls answered: no review was made. */
function unreachedJudge(evaluation: RubricEvaluation): string | undefined {
  const decoded = evaluation.criterion_results.filter(
    (r) => r.scoring_method_used === "llm_decode",
  );
  const errors = decoded.map((r) => r.llm_invocation?.error);
  if (decoded.length === 0 || errors.some((e) => e === undefined)) return undefined;
  return errors[0];
}

/**
 * Artifacts reviewed against registered rubrics: approved when every evaluation passed, else
 * needs_revision; a judge that could not answer leaves it review_failed, never approved.
 *
 * @example
 * const artifacts = await ArtifactRegistry.open({ rubricRegistry, rubricExecutor, typeDefinitions });
 * const artifact = await artifacts.create({ type: "quiz", name: "Biology Quiz", content });
 * const evaluations = await artifacts.submitForReview(artifact.id);
 */
export class ArtifactRegistry {
  constructor(
    private readonly store: RegistryStore,
    private readonly options: ArtifactRegistryOptions,
  ) {}

  static async open(
    options: ArtifactRegistryOptions & RegistryStoreOptions,
  ): Promise<ArtifactRegistry> {
    return new ArtifactRegistry(await openRegistryStore(options), options);
  }

  async create(artifact: NewArtifact): Promise<Artifact> {
    const content = JSON.stringify(artifact.content ?? null);
    if (Buffer.byteLength(content) > MAX_ARTIFACT_BYTES) {
      throw new RubricConfigError(
        `artifact "${artifact.name}"`,
        `its content is over the limit of ${MAX_ARTIFACT_BYTES} bytes as JSON`,
      );
    }
    const at = new Date().toISOString();
    const row: ArtifactRow = {
      id: `art_${randomUUID().replaceAll("-", "").slice(0, 16)}`,
      type: artifact.type,
      name: artifact.name,
      content,
      rubricIds: artifact.rubricIds ?? this.rubricsOfType(artifact.type),
      status: "draft",
      createdAt: at,
      updatedAt: at,
    };
    await this.store.createArtifact(row);
    return this.require(row.id);
  }

  async get(artifactId: string): Promise<Artifact | undefined> {
    const row = await this.store.artifact(artifactId);
    if (row === undefined) return undefined;
    const evaluations = await this.store.latestArtifactEvaluations(artifactId);
    return {
      ...row,
      content: storedJson(row.content, z.unknown(), `artifact ${row.id} content`),
      evaluations: evaluations.map((e) =>
        storedJson(e.body, RubricEvaluationSchema, `evaluation ${e.id}`),
      ),
    };
  }

  async require(artifactId: string): Promise<Artifact> {
    const artifact = await this.get(artifactId);
    if (artifact === undefined) throw artifactNotFound(artifactId);
    return artifact;
  }

  /** Reviews an artifact against `rubricIds` (default: its own, else its type's). */
  async submitForReview(
    artifact: string | Pick<Artifact, "id">,
    rubricIds?: readonly string[],
  ): Promise<RubricEvaluation[]> {
    const current = await this.require(typeof artifact === "string" ? artifact : artifact.id);
    const own = current.rubricIds.length > 0 ? current.rubricIds : undefined;
    const ids = rubricIds ?? own ?? this.rubricsOfType(current.type);
    if (ids.length === 0) {
      throw artifactReviewFailed(current.id, "no rubric to review it against");
    }
    const rubrics = await Promise.all(ids.map((id) => this.options.rubricRegistry.require(id)));
    await this.store.setArtifactStatus(current.id, "pending_review");
    await this.store.setArtifactStatus(current.id, "in_review");
    const evaluations: RubricEvaluation[] = [];
    try {
      for (const rubric of rubrics) {
        const evaluation = await this.options.rubricExecutor.evaluate(rubric, current.content, {
          targetId: current.id,
          targetType: current.type,
        });
        const unreached = unreachedJudge(evaluation);
        if (unreached !== undefined) throw new Error(`the judge could not answer: ${unreached}`);
        evaluations.push(evaluation);
      }
    } catch (error) {
      await this.store.setArtifactStatus(current.id, "review_failed");
      const reason = error instanceof Error ? error.message : String(error);
      throw artifactReviewFailed(current.id, `the review failed: ${reason}`, { cause: error });
    }
    const status = evaluations.every((e) => e.passed) ? "approved" : "needs_revision";
    await this.store.recordArtifactReview(
      current.id,
      status,
      evaluations.map((e, position) => ({
        id: e.id,
        artifactId: current.id,
        position,
        rubricId: e.rubric_id,
        rubricVersion: e.rubric_version,
        passed: e.passed,
        body: JSON.stringify(e),
        evaluatedAt: e.evaluated_at,
      })),
    );
    return evaluations;
  }

  private rubricsOfType(type: string): string[] {
    return this.options.typeDefinitions?.[type]?.rubrics ?? [];
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
