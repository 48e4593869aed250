import { z } from "zod";
import type { FunctionRegistry } from "../checks/registry.js";
import type { Retriever, SourceDocument } from "../context/types.js";
import type { ActiveCatalogs } from "../criteria/activeCatalog.js";
import type { Catalog } from "../criteria/model.js";
import type { JudgeModel, ModelSource } from "../llm/chatModel.js";
import { MAX_WAIT_MS } from "../llm/settings.js";
import { onOffSetting } from "../onOffSetting.js";
import {
  type CriterionOutcome,
  type EvaluationResult,
  PanelAggregateSchema,
} from "../scoring/result.js";
import { EvaluationError } from "./errors.js";
import type { FewShotOption } from "./fewShotExamples.js";
import type { JudgeCacheSetting } from "./judgeCache.js";

/** auto: grouped when every server slot gets at least two criteria, else per-criterion. */
export const EvaluationModeSchema = z.enum(["auto", "per-criterion", "grouped", "batch"]);
export type EvaluationMode = z.infer<typeof EvaluationModeSchema>;

export const EvaluationSettingsSchema = z.object({
  mode: EvaluationModeSchema.default("auto"),
  /** LLM criteria judged at once; on a judge pool, the slots of all its servers. */
  concurrency: z.number().int().min(1).max(64).default(4),
  /** How many groups grouped mode makes (default: concurrency; a pool's share on a pool). */
  parallelSlots: z.number().int().min(1).max(64).optional(),
  /** Ask score and point criteria for hits and misses (never in group and batch answers). */
  answerLists: z.boolean().default(true),
  /** Per model call, when the engine builds the model. */
  timeoutMs: z.number().int().positive().max(MAX_WAIT_MS).default(60_000),
  /** Retrieved chunks per criterion. */
  contextChunks: z.number().int().min(1).max(50).default(4),
  summary: z.enum(["deterministic", "model"]).default("deterministic"),
  /** Constrain the judge's decoding to each answer contract's JSON Schema (Ollama's `format`). */
  structuredOutput: z.boolean().default(true),
  /** Ask the judge whether the content addresses it; a yes or a failure forces human review. */
  injectionGuard: z.boolean().default(true),
  evaluator: z.string().min(1).default("ai"),
});
export type EvaluationSettings = z.infer<typeof EvaluationSettingsSchema>;

/** A panel's settings: the aggregate, and the agreement below which a human reviews. */
export const PanelSettingsSchema = z.object({
  aggregate: PanelAggregateSchema.default("median"),
  minAgreement: z.number().min(-1).max(1).optional(),
});
export type PanelSettings = z.infer<typeof PanelSettingsSchema>;
export type PanelOptions = z.input<typeof PanelSettingsSchema>;

/** Progress of one evaluation; no `done` when the judge could not be reached at all. */
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

type ValidatorAnswer = boolean | { valid: boolean; reason?: string };

/** A caller's extra check on a scored evaluation; a rejection keeps the result from passing. */
export type EvaluationValidator = (
  result: EvaluationResult,
) => ValidatorAnswer | Promise<ValidatorAnswer>;

/** A panel of judges, for evaluateContent and the evaluation node alike. */
export interface PanelChoice {
  /** A panel of judges instead of one `model`: the aggregate is the score, agreement reported. */
  judges?: readonly (ModelSource | JudgeModel)[];
  panel?: PanelOptions;
}

/** The panel choice, refused when `panel` is given without two or more `judges`. */
export function panelChoice(options: PanelChoice): PanelChoice {
  if (options.panel !== undefined && (options.judges?.length ?? 0) < 2) {
    // A minimum agreement nobody can fall under would be a gate that never holds anything.
    throw new EvaluationError("input", "the panel option needs two or more judges");
  }
  return { judges: options.judges, panel: options.panel };
}

export interface EvaluateContentOptions
  extends Partial<z.input<typeof EvaluationSettingsSchema>>,
    PanelChoice {
  /** Text, or a JSON-compatible value (schema and function criteria see the value). */
  content: unknown;
  catalog: Catalog;
  /** When it holds the catalog's id, its active version is judged and recorded as `id@version`. */
  rubricRegistry?: ActiveCatalogs;
  /** Default: createChatModel(). `null`: no judge — the LLM criteria are judge errors. */
  model?: ModelSource | JudgeModel | null;
  /** research, budget, … — adds that content type's guidance to the judge's prompt. */
  contentType?: string;
  /** A caller's prompt template; the answer contract is kept. */
  evaluationPrompt?: string;
  /** The question the content answers, shown to the judge fenced as data. */
  question?: string;
  referenceAnswer?: string;
  /** Source documents: chunked and ranked per criterion with BM25. */
  documents?: readonly SourceDocument[];
  /**
   * The documents are a project folder's (named so in messages) and are what is judged; `content`
   * is then "". The LLM criteria read passages retrieved from them, the function checks their
   * whole text, each under a `==> name <==` line, in name order.
   */
  projectFolder?: string;
  /** Source passages the caller retrieved itself, instead of passages from `documents`. */
  context?: string;
  retriever?: Retriever;
  registry?: FunctionRegistry;
  /** Where `module:function` refs and schemaRef files are resolved (default: the catalog's folder). */
  baseDir?: string;
  /** Larger content is refused before any model call (default: what fits a 32k-token window). */
  maxContentBytes?: number;
  /** `{ ttlSeconds?, store? }` answers an unchanged judge call from a kept answer. */
  cache?: JudgeCacheSetting;
  /** Append every model call's trace to this JSONL file. */
  traceFile?: string;
  signal?: AbortSignal;
  onProgress?: (event: EvaluationProgress) => void;
  now?: () => Date;
  /** A caller's check on the scored result; a rejection keeps it from passing. */
  validator?: EvaluationValidator;
  /** Reviewer corrections as few-shot examples in each criterion's prompt. */
  fewShot?: FewShotOption;
  /** Probability-weighted scores (G-Eval) where the server gives log-probabilities. */
  weightedScores?: boolean;
}

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
] as const satisfies readonly (keyof EvaluateContentOptions)[];

/** The pipeline's features every way in passes on as they are. */
export type PipelineFeatures = Pick<EvaluateContentOptions, (typeof FEATURES)[number]>;

export function pipelineFeatures(options: PipelineFeatures): PipelineFeatures {
  return Object.fromEntries(
    FEATURES.flatMap((name) => (options[name] === undefined ? [] : [[name, options[name]]])),
  );
}

/** The injection guard's default: on, unless EVALGATE_INJECTION_GUARD is off (a value it cannot read is refused). */
export function injectionGuardDefault(env: NodeJS.ProcessEnv = process.env): boolean {
  const refuse = (message: string) => new EvaluationError("input", message);
  return onOffSetting(env, "EVALGATE_INJECTION_GUARD", refuse) ?? true;
}
