import { stat } from "node:fs/promises";
import { basename, isAbsolute, resolve } from "node:path";
import { z } from "zod";
import type { FunctionRegistry } from "../../checks/registry.js";
import { loadDocuments } from "../../context/load.js";
import { activeCatalog } from "../../criteria/activeCatalog.js";
import { loadCatalog } from "../../criteria/load.js";
import {
  type Catalog,
  CatalogSchema,
  type Criterion,
  type CriterionInput,
  CriterionSchema,
  DEFAULT_PASSING_THRESHOLD,
  isLlmMethod,
} from "../../criteria/model.js";
import type { JudgeModel, ModelSource } from "../../llm/chatModel.js";
import { CriterionResultSchema, type EvaluationResult, TraceSchema } from "../../scoring/result.js";
import { encodeResultsToon } from "../../scoring/resultsToon.js";
import { checkContentBudget } from "../contentBudget.js";
import {
  EvaluationError,
  emptyProject,
  invalidProjectId,
  parseInput,
  projectNotFound,
} from "../errors.js";
import {
  evaluateContent,
  isJudgeModel,
  resolveJudgeModel,
  runEvaluation,
} from "../evaluateContent.js";
import {
  type EvaluationProgress,
  EvaluationSettingsSchema,
  injectionGuardDefault,
  type PipelineFeatures,
  pipelineFeatures,
} from "../options.js";

export const DEFAULT_PROJECTS_DIR = "data/projects";

const CriteriaEngineSettingsSchema = EvaluationSettingsSchema.pick({
  mode: true,
  concurrency: true,
  contextChunks: true,
  timeoutMs: true,
  injectionGuard: true,
}).extend({ dataDir: z.string().min(1).default(DEFAULT_PROJECTS_DIR) });

export interface CriteriaEngineOptions
  extends Partial<z.input<typeof CriteriaEngineSettingsSchema>>,
    PipelineFeatures {
  /**
   * The judge: a `provider:model` spec, a LangChain chat model, or a model from createChatModel.
   * Default: createChatModel() — Ollama with EVALGATE_MODEL.
   */
  model?: ModelSource | JudgeModel;
  /** Functions for `function` criteria; built-in point functions need none. */
  registry?: FunctionRegistry;
}

/** Per call: cancellation and progress events. */
export interface ProjectEvaluationOptions {
  signal?: AbortSignal;
  onProgress?: (event: EvaluationProgress) => void;
}

/** What `evaluateCriterion` needs besides the criterion and its context. */
export interface CriterionEvaluationOptions {
  /** The catalog the criterion belongs to: its id, passing threshold and judge instructions. */
  catalog?: Pick<Catalog, "id" | "passingThreshold" | "instructions">;
  signal?: AbortSignal;
}

/** One criterion's result with the model calls it made. */
export const CriterionEvaluationSchema = CriterionResultSchema.extend({
  traces: z.array(TraceSchema),
  /**
   * The screening found a reason for a person to look (the context looked like it addressed the
   * judge, the judge's reasoning contradicts its score, …): the criterion is not met until a
   * human has reviewed it, whatever its score; the reasons say what was found.
   */
  humanReviewRequired: z.boolean(),
  humanReviewReasons: z.array(z.string()).optional(),
  /** `id@version` of the rubric registry's active version, when the catalog came from there. */
  registryVersion: z.string().optional(),
});
export type CriterionEvaluation = z.infer<typeof CriterionEvaluationSchema>;

/** The catalog a lone criterion is judged under when the caller names none. */
const LONE_CRITERION_CATALOG: NonNullable<CriterionEvaluationOptions["catalog"]> = {
  id: "criterion",
  passingThreshold: DEFAULT_PASSING_THRESHOLD,
};

/**
 * The criteria engine: a funding project is a folder of documents under `dataDir`; the
 * documents are the evidence. Each criterion of the catalog gets its own retrieved context (BM25
 * over the project's chunks) and is judged on it — "Insufficient Information" without a model
 * call when nothing in the project bears on it. Knockout checks, 1–5 scores, the
 * weighted total and the funding status come from the engine's scoring; `toToon` writes the
 * results table of a funding criteria catalog.
 *
 * @example
 * const engine = new CriteriaEngine({ model: "ollama:qwen2.5:7b-instruct" }); // data/projects/…
 * const result = await engine.evaluateProject("hafen-sensorik", "data/criteria/ifb_profi.toon");
 * console.log(result.status, engine.toToon(result));
 */
export class CriteriaEngine {
  readonly dataDir: string;
  private readonly settings: z.infer<typeof CriteriaEngineSettingsSchema>;
  private readonly judge: JudgeModel;

  constructor(private readonly options: CriteriaEngineOptions = {}) {
    const settings = parseInput(
      CriteriaEngineSettingsSchema,
      {
        mode: options.mode,
        concurrency: options.concurrency,
        contextChunks: options.contextChunks,
        timeoutMs: options.timeoutMs,
        injectionGuard: options.injectionGuard ?? injectionGuardDefault(),
        dataDir: options.dataDir,
      },
      "CriteriaEngine options",
    );
    this.settings = settings;
    this.dataDir = resolve(settings.dataDir);
    // The caller's timeout binds a ready-made model too; without one, the model keeps its own.
    const keepOwn = options.timeoutMs === undefined && isJudgeModel(options.model);
    this.judge = resolveJudgeModel(options.model, {
      timeoutMs: keepOwn ? undefined : settings.timeoutMs,
    });
  }

  /** What every evaluation of this engine gives the pipeline. */
  private pipelineOptions(signal: AbortSignal | undefined) {
    return {
      ...pipelineFeatures(this.options),
      model: this.judge,
      timeoutMs: this.judge.timeoutMs,
      injectionGuard: this.settings.injectionGuard,
      registry: this.options.registry,
      signal,
    };
  }

  /** The folder of a project; throws when the id is not a plain folder name. */
  projectFolder(projectId: string): string {
    const folder = resolve(this.dataDir, projectId);
    const plain =
      projectId.trim() !== "" &&
      !isAbsolute(projectId) &&
      !/[\\/]/.test(projectId) &&
      projectId !== "." &&
      projectId !== ".." &&
      basename(folder) === projectId;
    if (!plain) throw invalidProjectId(projectId, folder);
    return folder;
  }

  /**
   * Evaluates a project's documents against a catalog file (TOON or JSON, any supported form) —
   * the `rubricRegistry`'s active version of it when the registry holds its id — as
   * evaluateContent does. Throws a ProjectError (PROJECT_NOT_FOUND / PROJECT_EMPTY) naming the
   * folder tried, CatalogError for a bad catalog, and EvaluationModelError when no model call
   * succeeded (its `result` holds the deterministic criteria).
   */
  async evaluateProject(
    projectId: string,
    catalogPath: string,
    options: ProjectEvaluationOptions = {},
  ): Promise<EvaluationResult> {
    const folder = this.projectFolder(projectId);
    const isFolder = await stat(folder).then(
      (found) => found.isDirectory(),
      () => false,
    );
    if (!isFolder) throw projectNotFound(projectId, folder);
    const documents = await loadDocuments(folder);
    if (documents.length === 0) throw emptyProject(projectId, folder);
    return evaluateContent({
      ...this.pipelineOptions(options.signal),
      content: "",
      catalog: await loadCatalog(catalogPath, { functions: this.options.registry }),
      documents,
      mode: this.settings.mode,
      concurrency: this.settings.concurrency,
      contextChunks: this.settings.contextChunks,
      onProgress: options.onProgress,
    });
  }

  /** evaluateProject, written as a TOON results document (results table and summary). */
  async evaluateProjectToon(
    projectId: string,
    catalogPath: string,
    options: ProjectEvaluationOptions = {},
  ): Promise<string> {
    return this.toToon(await this.evaluateProject(projectId, catalogPath, options));
  }

  /**
   * The results document: `results[N]{id,result,score,reasoning}` and
   * `summary{total_score,status}`.
   */
  toToon(result: EvaluationResult): string {
    return encodeResultsToon(result);
  }

  /**
   * One criterion judged on the given context text (the retrieved passages), through the
   * pipeline: the criterion a catalog of one, the passages its source documents. An LLM criterion
   * with an empty context is "Insufficient Information" without a model call; a `function` or
   * `schema` criterion runs on the context text; a judge that cannot be reached is a judge error
   * on the criterion (not evaluated). When the `rubricRegistry` holds the named catalog, its
   * active version's threshold and instructions, and its version of the criterion, are judged.
   */
  async evaluateCriterion(
    criterion: Criterion | CriterionInput,
    context: string,
    options: CriterionEvaluationOptions = {},
  ): Promise<CriterionEvaluation> {
    const given = parseInput(CriterionSchema, criterion, "criterion");
    checkContentBudget(context, this.options.maxContentBytes, "the context");
    const { id, passingThreshold, instructions } = options.catalog ?? LONE_CRITERION_CATALOG;
    const lone = CatalogSchema.parse({
      ...{ id, name: id, version: "1", passingThreshold, instructions },
      criteria: [given],
    });
    const active = await activeCatalog(lone, this.options.rubricRegistry);
    const found = active.criteria.find((c) => c.id === given.id) ?? given;
    const { result } = await runEvaluation({
      ...this.pipelineOptions(options.signal),
      // The judge reads the passages as source documents; a function or schema runs on them.
      ...(isLlmMethod(found.method) ? { content: "", context } : { content: context }),
      catalog: { ...active, criteria: [found] },
    });
    return toCriterionEvaluation(result);
  }
}

/**
 * The pipeline's result of a one-criterion catalog as that criterion's evaluation: its result,
 * the model calls, and the screening — held for review, it is not met whatever its score.
 */
export function toCriterionEvaluation(result: EvaluationResult): CriterionEvaluation {
  const [criterion] = result.criteria;
  if (criterion === undefined) throw new EvaluationError("input", "the result has no criterion");
  const held = result.humanReviewRequired === true;
  return CriterionEvaluationSchema.parse({
    ...criterion,
    met: held && criterion.met === true ? false : criterion.met,
    traces: result.traces,
    humanReviewRequired: held,
    ...(held ? { humanReviewReasons: result.humanReviewReasons ?? [] } : {}),
    registryVersion: result.catalog.registryVersion,
  });
}
