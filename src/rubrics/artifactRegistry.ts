import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  type RubricEvaluation,
  RubricEvaluationSchema,
  type RubricExecutor,
} from "../engine/apis/rubricExecutor.js";
import { storeDataInvalid } from "../store/errors.js";
import {
  openRegistryStore,
  type RegistryStore,
  type RegistryStoreOptions,
} from "../store/registryStore.js";
import {
  type ArtifactEvaluationRow,
  type ArtifactRow,
  type ArtifactStatus,
  ArtifactStatusSchema,
} from "../store/registryTypes.js";
import { parseUntrustedJson } from "../untrusted/json.js";
import { artifactNotFound, artifactReviewFailed, RubricConfigError } from "./errors.js";
import type { RubricRegistry } from "./rubricRegistry.js";

export { type ArtifactStatus, ArtifactStatusSchema };

/** The largest artifact content stored (as JSON). */
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
  /** The evaluations of its latest review, one per rubric, in order; empty before any. */
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

function parseJson(text: string, what: string): unknown {
  return parseUntrustedJson(text, (_problem, description) =>
    storeDataInvalid(`${what} is not usable JSON: ${description}`),
  );
}

function evaluationOf(row: ArtifactEvaluationRow): RubricEvaluation {
  const parsed = RubricEvaluationSchema.safeParse(parseJson(row.body, `evaluation ${row.id}`));
  if (!parsed.success) {
    throw storeDataInvalid(`evaluation ${row.id}: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/**
 * The model error of an evaluation none of whose model calls succeeded (every llm_decode
 * criterion's call failed), or undefined: such a review was not made, whatever its score says.
 */
function unreachedJudge(evaluation: RubricEvaluation): string | undefined {
  const decoded = evaluation.criterion_results.filter(
    (r) => r.scoring_method_used === "llm_decode",
  );
  const errors = decoded.map((r) => r.llm_invocation?.error);
  if (decoded.length === 0 || errors.some((e) => e === undefined)) return undefined;
  return errors[0];
}

/**
 * Artifacts and their review against registered rubrics, kept in the checkpoints' database.
 * `submitForReview` resolves the rubrics (an unknown one is refused before anything changes),
 * marks the artifact pending_review then in_review, evaluates its content with each rubric, and
 * sets approved when every evaluation passed, else needs_revision — the evaluations stored with
 * the artifact, each naming the rubric id and version it used. An evaluation that throws (the
 * model failed) leaves the artifact review_failed: never approved, never silently revised.
 *
 * @example
 * const artifacts = await ArtifactRegistry.open({ rubricRegistry, rubricExecutor, typeDefinitions });
 * const artifact = await artifacts.create({ type: "quiz", name: "Biology Quiz", content });
 * const evaluations = await artifacts.submitForReview(artifact.id);
 * console.log((await artifacts.require(artifact.id)).status); // "approved"
 */
export class ArtifactRegistry {
  constructor(
    private readonly store: RegistryStore,
    private readonly options: ArtifactRegistryOptions,
  ) {}

  /** Opens the artifact registry in the checkpoints' database. */
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
      rubricIds: artifact.rubricIds ?? this.options.typeDefinitions?.[artifact.type]?.rubrics ?? [],
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
      content: parseJson(row.content, `artifact ${row.id} content`),
      evaluations: evaluations.map(evaluationOf),
    };
  }

  async require(artifactId: string): Promise<Artifact> {
    const artifact = await this.get(artifactId);
    if (artifact === undefined) throw artifactNotFound(artifactId);
    return artifact;
  }

  /**
   * Reviews an artifact (or its id) against `rubricIds` (default: its own, else its type's) and
   * returns the evaluations, which are stored with it.
   */
  async submitForReview(
    artifact: string | Pick<Artifact, "id">,
    rubricIds?: readonly string[],
  ): Promise<RubricEvaluation[]> {
    const current = await this.require(typeof artifact === "string" ? artifact : artifact.id);
    const ids =
      rubricIds ??
      (current.rubricIds.length > 0
        ? current.rubricIds
        : (this.options.typeDefinitions?.[current.type]?.rubrics ?? []));
    if (ids.length === 0) {
      throw artifactReviewFailed(current.id, "no rubric to review it against");
    }
    const rubrics = await Promise.all(ids.map((id) => this.options.rubricRegistry.require(id)));
    await this.setStatus(current.id, "pending_review");
    await this.setStatus(current.id, "in_review");
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
      await this.setStatus(current.id, "review_failed");
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

  private async setStatus(artifactId: string, status: ArtifactStatus): Promise<void> {
    await this.store.setArtifactStatus(artifactId, status);
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
