import { stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
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

const CriteriaEngineSettingsSchema = EvaluationSettingsSchema.pick({
  mode: true,
  concurrency: true,
  contextChunks: true,
  timeoutMs: true,
  injectionGuard: true,
}).extend({ dataDir: z.string().min(1).default("data/projects") });

export interface CriteriaEngineOptions
  extends Partial<z.input<typeof CriteriaEngineSettingsSchema>>,
    PipelineFeatures {
  /** Default: createChatModel() — Ollama with EVALGATE_MODEL. */
  model?: ModelSource | JudgeModel;
  registry?: FunctionRegistry;
}

/** Per call: cancellation and progress events. */
export interface ProjectEvaluationOptions {
  signal?: AbortSignal;
  onProgress?: (event: EvaluationProgress) => void;
}

interface CriterionEvaluationOptions {
  /** The catalog the criterion belongs to. */
  catalog?: Pick<Catalog, "id" | "passingThreshold" | "instructions">;
  signal?: AbortSignal;
}

/** One criterion's result with the model calls it made and its screening. */
export const CriterionEvaluationSchema = CriterionResultSchema.extend({
  traces: z.array(TraceSchema),
  /** Held for review: the criterion is not met, whatever its score. */
  humanReviewRequired: z.boolean(),
  humanReviewReasons: z.array(z.string()).optional(),
  registryVersion: z.string().optional(),
});
export type CriterionEvaluation = z.infer<typeof CriterionEvaluationSchema>;

/**
 * A funding project is a folder of documents under `dataDir`, the evidence each criterion is
 * judged on: an LLM criterion reads its own BM25-retrieved passages, a function criterion the
 * documents' whole text.
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
    const given = { ...options, injectionGuard: options.injectionGuard ?? injectionGuardDefault() };
    const settings = parseInput(CriteriaEngineSettingsSchema, given, "CriteriaEngine options");
    this.settings = settings;
    this.dataDir = resolve(settings.dataDir);
    // A ready-made model keeps its own timeout unless the caller gives one.
    const keepOwn = options.timeoutMs === undefined && isJudgeModel(options.model);
    this.judge = resolveJudgeModel(options.model, {
      timeoutMs: keepOwn ? undefined : settings.timeoutMs,
    });
  }

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
    // ".", ".." and anything with a separator resolve to a folder of another name.
    const plain = projectId.trim() !== "" && basename(folder) === projectId;
    if (!plain || /[\\/]/.test(projectId)) throw invalidProjectId(projectId, folder);
    return folder;
  }

  /** Evaluates a project's documents against a catalog file, as evaluateContent does. */
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
      projectFolder: folder,
      mode: this.settings.mode,
      concurrency: this.settings.concurrency,
      contextChunks: this.settings.contextChunks,
      onProgress: options.onProgress,
    });
  }

  /** evaluateProject, written as a TOON results document. */
  async evaluateProjectToon(
    projectId: string,
    catalogPath: string,
    options: ProjectEvaluationOptions = {},
  ): Promise<string> {
    return this.toToon(await this.evaluateProject(projectId, catalogPath, options));
  }

  /** `results[N]{id,result,score,reasoning}` and `summary{total_score,status}`. */
  toToon(result: EvaluationResult): string {
    return encodeResultsToon(result);
  }

  /** One criterion judged on the given context (retrieved passages) as a catalog of one. */
  async evaluateCriterion(
    criterion: Criterion | CriterionInput,
    context: string,
    options: CriterionEvaluationOptions = {},
  ): Promise<CriterionEvaluation> {
    const given = parseInput(CriterionSchema, criterion, "criterion");
    checkContentBudget(context, this.options.maxContentBytes, "the context");
    const {
      id = "criterion",
      passingThreshold = DEFAULT_PASSING_THRESHOLD,
      instructions,
    } = options.catalog ?? {};
    const lone = CatalogSchema.parse({
      ...{ id, name: id, version: "1", passingThreshold, instructions },
      criteria: [given],
    });
    const active = await activeCatalog(lone, this.options.rubricRegistry);
    const found = active.criteria.find((c) => c.id === given.id) ?? given;
    // Alone, a criterion that counts for nothing in its catalog (weight 0) is still judged.
    const weighed = found.weight > 0 || found.knockout ? found : { ...found, weight: 1 };
    const { result } = await runEvaluation({
      ...this.pipelineOptions(options.signal),
      // The judge reads the passages as source documents; a function or schema runs on them.
      ...(isLlmMethod(found.method) ? { content: "", context } : { content: context }),
      catalog: { ...active, criteria: [weighed] },
    });
    return { ...toCriterionEvaluation(result), weight: found.weight };
  }
}

/** The pipeline's result of a one-criterion catalog as that criterion's evaluation. */
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
