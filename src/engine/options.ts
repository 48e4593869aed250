import { z } from "zod";
import type { FunctionRegistry } from "../checks/registry.js";
import type { Retriever, SourceDocument } from "../context/types.js";
import type { ActiveCatalogs } from "../criteria/activeCatalog.js";
import type { Catalog } from "../criteria/model.js";
import type { JudgeModel, ModelSource } from "../llm/chatModel.js";
import type { CriterionOutcome } from "../scoring/outcome.js";
import { PanelAggregateSchema } from "../scoring/panelResult.js";
import type { EvaluationResult } from "../scoring/result.js";
import type { FewShotOption } from "./fewShotExamples.js";
import type { JudgeCacheSetting } from "./judgeCache.js";

/**
 * auto (default): grouped when every server slot gets at least two criteria, else per-criterion;
 * per-criterion: one call each; grouped: one call per slot group; batch: one call for all.
 */
export const EvaluationModeSchema = z.enum(["auto", "per-criterion", "grouped", "batch"]);
export type EvaluationMode = z.infer<typeof EvaluationModeSchema>;

export const SummaryModeSchema = z.enum(["deterministic", "model"]);
export type SummaryMode = z.infer<typeof SummaryModeSchema>;

/** The plain settings of an evaluation, validated at the boundary. */
export const EvaluationSettingsSchema = z.object({
  mode: EvaluationModeSchema.default("auto"),
  /**
   * LLM criteria judged at once (Ollama serves a few requests in parallel). Default 4; on a judge
   * pool (several servers), the slots of all its servers.
   */
  concurrency: z.number().int().min(1).max(64).default(4),
  /**
   * The judge server's parallel slots: how many groups grouped mode makes (default: concurrency;
   * on a judge pool, the pool's slots divided among the evaluations on it now).
   */
  parallelSlots: z.number().int().min(1).max(64).optional(),
  /**
   * Ask score and point criteria for hits and misses (the review view lists them as strengths
   * and weaknesses); off makes every answer shorter. Group and batch answers never carry them.
   */
  answerLists: z.boolean().default(true),
  /** Per model call, when the engine builds the model from a spec (default 60 s). */
  timeoutMs: z.number().int().positive().default(60_000),
  /** Retrieved chunks per criterion. */
  contextChunks: z.number().int().min(1).max(50).default(4),
  summary: SummaryModeSchema.default("deterministic"),
  /**
   * Give the judge each criterion's answer contract as a JSON Schema (Ollama's `format`), so its
   * decoding is constrained to a usable answer. The parser checks every answer either way.
   */
  structuredOutput: z.boolean().default(true),
  /**
   * Before judging, ask the judge model whether the content (and the source documents) carry
   * text aimed at the evaluator; a yes, or a guard that fails, forces human review. On by
   * default; EVALGATE_INJECTION_GUARD=off turns the default off.
   */
  injectionGuard: z.boolean().default(true),
  evaluator: z.string().min(1).default("ai"),
});
export type EvaluationSettings = z.infer<typeof EvaluationSettingsSchema>;

/** A panel's settings: how answers are aggregated, and the agreement below which a human reviews. */
export const PanelSettingsSchema = z.object({
  aggregate: PanelAggregateSchema.default("median"),
  minAgreement: z.number().min(-1).max(1).optional(),
});
export type PanelSettings = z.infer<typeof PanelSettingsSchema>;
export type PanelOptions = z.input<typeof PanelSettingsSchema>;

/**
 * Progress of one evaluation, for progress bars and graph stream events. `done` comes once the
 * judge has answered; an evaluation whose judge could not be reached at all has no `done`.
 */
export type EvaluationProgress =
  | { type: "start"; total: number; llmCriteria: number }
  | { type: "criterion_start"; criterionId: string; index: number; total: number }
  | {
      type: "criterion_done";
      criterionId: string;
      index: number;
      total: number;
      outcome: CriterionOutcome;
    }
  | { type: "done"; passed: boolean; overallScore: number };

/** A validator's answer: valid or not, with an optional reason. */
export type ValidatorAnswer = boolean | { valid: boolean; reason?: string };

/** A caller's extra check on a scored evaluation; a rejection keeps the result from passing. */
export type EvaluationValidator = (
  result: EvaluationResult,
) => ValidatorAnswer | Promise<ValidatorAnswer>;

/** A panel of judges, for evaluateContent and the evaluation node alike. */
export interface PanelChoice {
  /**
   * A panel of judges instead of one `model`: every LLM criterion is judged by each (at once,
   * within `concurrency`), the aggregate is the score, and their agreement is reported. When given,
   * `model` is not used.
   */
  judges?: readonly (ModelSource | JudgeModel)[];
  /** How a panel's answers are aggregated (default median) and the agreement a result needs. */
  panel?: PanelOptions;
}

/** The panel fields of options that may carry them (for passing them on). */
export function panelChoice(options: PanelChoice): PanelChoice {
  return { judges: options.judges, panel: options.panel };
}

export interface EvaluateContentOptions
  extends Partial<z.input<typeof EvaluationSettingsSchema>>,
    PanelChoice {
  /** What is judged: text, or a JSON-compatible value (schema and function criteria see the value). */
  content: unknown;
  catalog: Catalog;
  /**
   * The rubric registry (RubricRegistry, or any ActiveCatalogs): when it holds the catalog's id,
   * its active version is judged instead, and the result and traces record it as `id@version`
   * (`catalog.registryVersion`). Without it, or without that id in it, `catalog` is judged.
   */
  rubricRegistry?: ActiveCatalogs;
  /**
   * The judge: a `provider:model` spec, a LangChain chat model, or a model from createChatModel.
   * Default: createChatModel() — Ollama with EVALGATE_MODEL. `null`: no judge — the LLM criteria
   * are reported as not evaluated (a judge error), the deterministic ones are run.
   */
  model?: ModelSource | JudgeModel | null;
  /** research, budget, … — adds that content type's guidance to the judge's prompt. */
  contentType?: string;
  /**
   * A caller's prompt template (`evaluationPrompt`); the answer contract is kept. Placeholders as
   * in renderJudgePrompt, and {{question}} and {{reference_answer}} when those are given.
   */
  evaluationPrompt?: string;
  /**
   * The question (or prompt) the content answers: shown to the judge beside the content, fenced
   * as data. With a question, empty content is an empty answer, judged as such.
   */
  question?: string;
  /** A reference answer shown to the judge beside the content, fenced as data. */
  referenceAnswer?: string;
  /** Source documents: chunked and ranked per criterion with BM25. */
  documents?: readonly SourceDocument[];
  /**
   * Source passages the caller chose itself (retrieved already): every criterion's prompt carries
   * them as its source documents, instead of passages retrieved from `documents`.
   */
  context?: string;
  /** A retriever of your own (e.g. embeddings) instead of BM25 over `documents`. */
  retriever?: Retriever;
  /** Functions for `function` criteria; built-in point functions need none. */
  registry?: FunctionRegistry;
  /** Where `module:function` refs and schemaRef files are resolved (default: the catalog's folder). */
  baseDir?: string;
  /**
   * The most content bytes (structured content as its JSON text) sent to the judge; larger
   * content is refused with a ContentTooLargeError before any model call. Default:
   * contentBudgetBytes(), what fits a 32k-token context window.
   */
  maxContentBytes?: number;
  /**
   * The judge-call cache: `{ ttlSeconds?, store? }` keeps every usable answer (in `store`, else in
   * this process's memory) and answers an unchanged call from it; `false` or absent: no cache.
   */
  cache?: JudgeCacheSetting;
  /** Append every model call's trace to this JSONL file. */
  traceFile?: string;
  signal?: AbortSignal;
  onProgress?: (event: EvaluationProgress) => void;
  /** The clock, for the result's timestamp. */
  now?: () => Date;
  /**
   * A caller's check on the scored result (before any model-written summary). A rejection is
   * settled with the rest: the result does not pass, its verdict is fail, the summary says why.
   */
  validator?: EvaluationValidator;
  /**
   * Reviewer corrections as few-shot examples in each criterion's prompt, from `source`. Off when
   * absent; given, `enabled` decides, else the catalog's `fewShot.enabled`, else on. The result's
   * `fewShotExamples` lists the label ids each criterion was shown.
   */
  fewShot?: FewShotOption;
  /**
   * Probability-weighted scores (G-Eval): a score criterion judged in its own call asks the model
   * server for the answer tokens' log-probabilities, and its score is the mean of the scale's
   * values weighted by their probabilities; where the server gives none (or too little of the
   * probability is on the scale), the plain score stands. Each such criterion's result says which
   * (`scoreMethod`, `scoreMethodReason`). Default: the catalog's `weightedScores`, else off.
   */
  weightedScores?: boolean;
}

/**
 * The pipeline's features a way in (CriteriaEngine, PromptEvaluator, RubricExecutor, runBlueprint)
 * passes on as they are, so that each works on every way in: the judge cache, few-shot examples,
 * probability-weighted scores, a panel of judges, structured output, the content type's guidance,
 * the rubric registry whose active version of the catalog is judged, the trace file, the content
 * budget.
 */
export type PipelineFeatures = Pick<
  EvaluateContentOptions,
  | "cache"
  | "fewShot"
  | "weightedScores"
  | "judges"
  | "panel"
  | "structuredOutput"
  | "contentType"
  | "rubricRegistry"
  | "traceFile"
  | "maxContentBytes"
>;

const FEATURES = [
  "rubricRegistry",
  "traceFile",
  "maxContentBytes",
  "cache",
  "fewShot",
  "weightedScores",
  "judges",
  "panel",
  "structuredOutput",
  "contentType",
] as const satisfies readonly (keyof PipelineFeatures)[];

/** The pipeline features set in `options`, to spread into the pipeline's options. */
export function pipelineFeatures(options: PipelineFeatures): PipelineFeatures {
  return Object.fromEntries(
    FEATURES.flatMap((name) => (options[name] === undefined ? [] : [[name, options[name]]])),
  );
}

/** The injection guard's default: on, unless EVALGATE_INJECTION_GUARD says off / false / 0. */
export function injectionGuardDefault(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.EVALGATE_INJECTION_GUARD?.trim().toLowerCase();
  return !(value === "off" || value === "false" || value === "0" || value === "no");
}
