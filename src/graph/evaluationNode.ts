import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { FunctionRegistry } from "../checks/registry.js";
import type { SourceDocument } from "../context/types.js";
import type { ActiveCatalogs } from "../criteria/activeCatalog.js";
import type { Catalog } from "../criteria/model.js";
import { EvaluationError, isEvaluationModelError } from "../engine/errors.js";
import { evaluateContent } from "../engine/evaluateContent.js";
import type { FewShotOption } from "../engine/fewShotExamples.js";
import type { JudgeCacheSetting } from "../engine/judgeCache.js";
import { type EvaluationMode, type PanelChoice, panelChoice } from "../engine/options.js";
import type { JudgeModel, ModelSource } from "../llm/chatModel.js";
import { isModelAbortedError } from "../llm/errors.js";
import type { EvaluationResult } from "../scoring/result.js";
import { shownScore } from "../scoring/shownScore.js";
import { loadStageCatalog } from "./criteriaLocation.js";
import { nothingEvaluated } from "./errors.js";
import {
  describeFailure,
  evaluationReview,
  type FailedReview,
  failedStageUpdate,
} from "./failure.js";
import { settleRunSettings } from "./runSettings.js";
import { judgeCacheFor, resultForState, type TraceDestination, traceStoreFor } from "./runSinks.js";
import {
  type EvaluationContext,
  type OverallProposalStateType,
  type ProposalUpdate,
  runContext,
} from "./state.js";
import { mergeStateUpdates, parseStatePath, type StatePath, statePathUpdate } from "./statePath.js";

/** Pulls the content to evaluate out of the state. */
export type ContentExtractor = (state: OverallProposalStateType) => unknown;

/** A caller's extra check on a finished evaluation. */
export type ResultValidator = (
  result: EvaluationResult,
  state: OverallProposalStateType,
) =>
  | boolean
  | { valid: boolean; reason?: string }
  | Promise<boolean | { valid: boolean; reason?: string }>;

export interface EvaluationNodeOptions extends PanelChoice {
  /** research, solution, connection_pairs, problem_statement, … */
  contentType: string;
  contentExtractor: ContentExtractor;
  /** A JSON or TOON catalog: absolute, or relative to the working directory or the criteria folder. */
  criteriaPath: string;
  /** A caller's judge prompt template (placeholders as in renderJudgePrompt). */
  evaluationPrompt?: string;
  /** Where the EvaluationResult goes: `researchEvaluation` or `sections.<id>.evaluation`. */
  resultField: string;
  /** The content's status field: `researchStatus` or `sections.<id>.status`. */
  statusField: string;
  /** Overall 0–1 threshold (default: the catalog's, 0.7); a run's context may override it. */
  passingThreshold?: number;
  /** `provider:model` for the judge (default: EVALGATE_MODEL on Ollama). */
  modelName?: string;
  customValidator?: ResultValidator;
  /** An injected judge (a chat model or createChatModel's result); wins over modelName. */
  model?: ModelSource | JudgeModel;
  /** Per model call (default 60 s). */
  timeoutMs?: number;
  concurrency?: number;
  mode?: EvaluationMode;
  /** The stage id used in messages and interrupt metadata (default: contentType). */
  contentId?: string;
  /** Shown to the reviewer, e.g. "Research" (default: from contentType). */
  title?: string;
  /** Extra folder to look for criteria files in. */
  criteriaDir?: string;
  /** The rubric registry: its active version of the catalog's id is judged, as `id@version`. */
  rubricRegistry?: ActiveCatalogs;
  /** The criteriaPath came from the graph's input, not code: only a file inside the criteria folders. */
  criteriaPathFromInput?: boolean;
  /** Source documents for per-criterion context, read from the state. */
  documents?: (state: OverallProposalStateType) => SourceDocument[] | undefined;
  registry?: FunctionRegistry;
  /** Also append every model call's trace to this JSONL file (an export). */
  traceFile?: string;
  /** Where traces go (default: a trace store beside the checkpoints; `inline`: in the result). */
  traces?: TraceDestination;
  /** The judge-call cache (default: in the checkpointer's database; `false`: off). */
  cache?: JudgeCacheSetting;
  /** Reviewer corrections as few-shot examples; `enabled: "catalog"` follows the catalog's setting. */
  fewShot?: EvaluationFewShot;
}

export type EvaluationNode = (
  state: OverallProposalStateType,
  config?: LangGraphRunnableConfig,
) => Promise<ProposalUpdate>;

interface NodeStage {
  options: EvaluationNodeOptions;
  contentType: string;
  contentId: string;
  title: string;
  resultField: string;
  resultPath: StatePath;
  statusPath: StatePath;
}

function failedUpdate(
  stage: NodeStage,
  error: unknown,
  evaluation: EvaluationResult | null = null,
): ProposalUpdate {
  const failure = describeFailure(error, `evaluate ${stage.contentId}`, stage.title);
  const review: FailedReview = {
    ...evaluationReview(stage, evaluation),
    type: "evaluation_error",
    actions: ["retry", "edit", "approve"],
    title: `${stage.title} Evaluation Failed`,
  };
  const result = evaluation === null ? {} : statePathUpdate(stage.resultPath, evaluation);
  return failedStageUpdate(stage.statusPath, review, failure, result);
}

/**
 * A failed evaluation's update; when the judge could not be reached, the deterministic criteria's
 * results (and the model-judged ones as not evaluated) are kept in state as a success would be.
 */
async function failedWithResult(
  stage: NodeStage,
  error: unknown,
  forState: (result: EvaluationResult) => Promise<EvaluationResult>,
): Promise<ProposalUpdate> {
  const partial = isEvaluationModelError(error) ? error.result : undefined;
  if (partial === undefined) return failedUpdate(stage, error);
  try {
    return failedUpdate(stage, error, await forState(partial));
  } catch (notStored) {
    return failedUpdate(stage, notStored);
  }
}

async function stageCatalog(options: EvaluationNodeOptions, context: EvaluationContext) {
  const loaded = await loadStageCatalog(
    options.criteriaPath,
    options.contentType,
    options.criteriaDir,
    options.criteriaPathFromInput === true,
    options.rubricRegistry,
  );
  const threshold = context.passingThreshold ?? options.passingThreshold;
  return threshold === undefined
    ? loaded.catalog
    : { ...loaded.catalog, passingThreshold: threshold };
}

interface Judging {
  content: unknown;
  catalog: Catalog;
  state: OverallProposalStateType;
  config: LangGraphRunnableConfig | undefined;
}

function judge(stage: NodeStage, { content, catalog, state, config }: Judging) {
  const { options } = stage;
  const context = runContext(config);
  const { customValidator } = options;
  const fewShot = fewShotForCatalog(options.fewShot, catalog);
  return evaluateContent({
    content,
    catalog,
    model: options.model ?? context.model ?? options.modelName,
    ...panelChoice(options),
    contentType: options.contentType,
    evaluationPrompt: options.evaluationPrompt,
    documents: options.documents?.(state),
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    mode: context.mode ?? options.mode,
    registry: options.registry,
    traceFile: options.traceFile,
    cache: judgeCacheFor(options.cache, config),
    signal: config?.signal,
    ...(fewShot === undefined ? {} : { fewShot }),
    onProgress: (event) => config?.writer?.({ ...event, contentId: stage.contentId }),
    ...(customValidator === undefined
      ? {}
      : { validator: (evaluated: EvaluationResult) => customValidator(evaluated, state) }),
  });
}

function reviewUpdate(stage: NodeStage, result: EvaluationResult): ProposalUpdate {
  const { title } = stage;
  const metadata = evaluationReview(stage, result);
  const score = shownScore(result.overallScore, "percent");
  const outcome = `${result.passed ? "passed" : "did not pass"} with ${score}`;
  const verdict = `${result.verdict}${result.status === undefined ? "" : `, ${result.status}`}`;
  return mergeStateUpdates(
    statePathUpdate(stage.resultPath, result),
    statePathUpdate(stage.statusPath, "awaiting_review"),
    {
      isInterrupted: true,
      interruptMetadata: metadata,
      messages: [new AIMessage(`${title} evaluated: ${outcome} (${verdict}). Awaiting review.`)],
    },
  );
}

/**
 * Builds an evaluation node: it checks the content (no model call when it is missing), loads the
 * catalog, judges (evaluateContent) and writes the result, `awaiting_review` and the review metadata.
 * A failure gives status `error` with a friendly message, and the review offers a retry.
 * @example
 * const evaluateResearch = createEvaluationNode({
 *   contentType: "research",
 *   contentExtractor: (state) => state.researchResults,
 *   criteriaPath: "research.json",
 *   resultField: "researchEvaluation",
 *   statusField: "researchStatus",
 * });
 */
export function createEvaluationNode(options: EvaluationNodeOptions): EvaluationNode {
  panelChoice(options); // a panel without two judges is refused when the node is made
  const contentId = options.contentId ?? options.contentType;
  const stage: NodeStage = {
    options,
    contentType: options.contentType,
    contentId,
    title: options.title ?? humanReadable(options.contentType),
    resultField: options.resultField,
    resultPath: parseStatePath(options.resultField),
    statusPath: parseStatePath(options.statusField),
  };

  return async (state, given) => {
    const settled = settleRunSettings(state.threadSettings, given);
    const config: LangGraphRunnableConfig = { ...given, context: settled.context };
    const content = options.contentExtractor(state);
    const problem = contentProblem(content);
    if (problem !== undefined) {
      return { ...failedUpdate(stage, new EvaluationError("input", problem)), ...settled.update };
    }
    config.writer?.({
      type: "status",
      contentId,
      contentType: options.contentType,
      status: "evaluating",
    });
    const forState = (judged: EvaluationResult) =>
      resultForState(judged, traceStoreFor(options.traces, config), config);
    try {
      const catalog = await stageCatalog(options, runContext(config));
      const result = await forState(await judge(stage, { content, catalog, state, config }));
      if (result.notEvaluated.length === catalog.criteria.length && catalog.criteria.length > 0) {
        const nothing = nothingEvaluated(result.warnings);
        return { ...failedUpdate(stage, nothing, result), ...settled.update };
      }
      return { ...reviewUpdate(stage, result), ...settled.update };
    } catch (error) {
      if (isModelAbortedError(error)) throw error;
      return { ...(await failedWithResult(stage, error, forState)), ...settled.update };
    }
  };
}

/** `connection_pairs` → `Connection Pairs`. */
function humanReadable(contentType: string): string {
  return contentType
    .split(/[_\-\s]+|(?=[A-Z])/)
    .filter((w) => w !== "")
    .map((w) => w[0]?.toUpperCase() + w.slice(1).toLowerCase())
    .join(" ");
}

/** Why the content cannot be evaluated (checked before any model call), or undefined. */
function contentProblem(content: unknown): string | undefined {
  if (content === undefined || content === null) return "there is no content to evaluate";
  if (typeof content === "string")
    return content.trim() === "" ? "the content is empty" : undefined;
  if (typeof content !== "object") {
    return `the content is a ${typeof content}, not text or structured data`;
  }
  if (Array.isArray(content))
    return content.length === 0 ? "the content is an empty list" : undefined;
  return Object.keys(content).length === 0 ? "the content is an empty object" : undefined;
}

/**
 * The node's few-shot option: the engine's, or one used only for a catalog that turns them on
 * (`enabled: "catalog"`); never part of the state or a checkpoint.
 */
export type EvaluationFewShot =
  | FewShotOption
  | (Omit<FewShotOption, "enabled"> & { enabled: "catalog" });

function fewShotForCatalog(fewShot: EvaluationFewShot | undefined, catalog: Catalog) {
  if (fewShot?.enabled !== "catalog") return fewShot as FewShotOption | undefined;
  if (catalog.fewShot?.enabled !== true) return undefined;
  return { ...fewShot, enabled: true };
}
