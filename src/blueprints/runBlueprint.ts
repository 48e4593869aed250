import { FunctionRegistry } from "../checks/registry.js";
import { formatBytes } from "../engine/contentBudget.js";
import { ContentTooLargeError } from "../engine/errors.js";
import { resolveJudgeModel, runEvaluation } from "../engine/evaluateContent.js";
import { type PipelineFeatures, pipelineFeatures } from "../engine/options.js";
import type { JudgeModel, ModelSource } from "../llm/chatModel.js";
import { invokeJudge } from "../llm/invoke.js";
import { type Blueprint, type PreparedPrompt, prepareBlueprint } from "./blueprint.js";
import { coverageOf } from "./coverage.js";
import { BlueprintError } from "./errors.js";
import type { BlueprintRun, CoverageResult } from "./result.js";

export interface RunBlueprintOptions extends Omit<PipelineFeatures, "rubricRegistry"> {
  /** Candidate models; default: the blueprint's own `models`. */
  models?: readonly (ModelSource | JudgeModel)[];
  /** The judge (default: createChatModel(), Ollama with EVALGATE_MODEL). */
  judge?: ModelSource | JudgeModel;
  /** Sampling seed of candidate and judge calls built from specs (default EVALGATE_SEED, else 42). */
  seed?: number | null;
  timeoutMs?: number;
  /** Read EVALGATE_MODEL, OLLAMA_BASE_URL and EVALGATE_SEED from here (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** A label for the run (default: the blueprint's id). */
  runLabel?: string;
  /** Functions for the points; each prompt's `ideal` becomes its reference. */
  registry?: FunctionRegistry;
  signal?: AbortSignal;
  now?: () => Date;
  /** Told before each candidate answers a prompt, and after its answer was judged. */
  onProgress?: (progress: BlueprintProgress) => void;
}

/** Where a blueprint run is; `done` of `total` (prompts × candidates) counts the pairs finished. */
export type BlueprintProgress =
  | { phase: "asking"; promptId: string; model: string; done: number; total: number }
  | {
      phase: "judged";
      promptId: string;
      model: string;
      done: number;
      total: number;
      /** The weighted average coverage; null when no point was assessed. */
      coverage: number | null;
      error?: string;
    };

function modelOptions({ timeoutMs, seed, env }: RunBlueprintOptions) {
  return { timeoutMs, seed, env };
}

/** Each candidate under the name its results are keyed by (its spec, or its provider:model). */
function candidatesOf(blueprint: Blueprint, options: RunBlueprintOptions) {
  const sources = options.models ?? blueprint.models ?? [];
  if (sources.length === 0) {
    throw new BlueprintError(
      "models",
      "no candidate model: the blueprint names none and none was given",
    );
  }
  const candidates = sources.map((source) => {
    const model = resolveJudgeModel(source, modelOptions(options));
    const name = typeof source === "string" ? source : (model.candidates[0]?.spec ?? "model");
    return { name, model };
  });
  const names = new Set(candidates.map((c) => c.name));
  if (names.size !== candidates.length) {
    throw new BlueprintError("models", "the same candidate model is named more than once");
  }
  return candidates;
}

function registryFor(prompt: PreparedPrompt, options: RunBlueprintOptions): FunctionRegistry {
  const base = options.registry ?? new FunctionRegistry();
  return base.withReference(prompt.reference ?? base.reference);
}

async function answerOf(
  model: JudgeModel,
  prompt: PreparedPrompt,
  system: string | undefined,
  signal: AbortSignal | undefined,
): Promise<{ text: string } | { error: string }> {
  const messages: Array<[string, string]> = [];
  if (system !== undefined && system.trim() !== "") messages.push(["system", system]);
  messages.push(["human", prompt.text]);
  try {
    const answer = await invokeJudge(model, messages, { signal });
    return { text: answer.text };
  } catch (error) {
    if (signal?.aborted) throw error;
    return {
      error: `the model could not answer: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** One candidate's answer to a prompt and its coverage (or why there is none). */
async function judgedAnswer(
  model: JudgeModel,
  prompt: PreparedPrompt,
  judge: JudgeModel,
  system: string | undefined,
  options: RunBlueprintOptions,
): Promise<{ answer?: string; coverage: CoverageResult | { error: string } }> {
  const answer = await answerOf(model, prompt, prompt.system ?? system, options.signal);
  if ("error" in answer) return { coverage: { error: answer.error } };
  try {
    // A judge that cannot be reached leaves each text point an error; function points stand.
    const { result } = await runEvaluation({
      ...pipelineFeatures(options),
      content: answer.text,
      catalog: prompt.catalog,
      model: judge,
      registry: registryFor(prompt, options),
      signal: options.signal,
      now: options.now,
    });
    return { answer: answer.text, coverage: coverageOf(result, prompt) };
  } catch (error) {
    if (!(error instanceof ContentTooLargeError)) throw error;
    // One candidate's long answer is that pair's error, never the end of the run.
    const over = `${formatBytes(error.sizeBytes)}, over the content budget of ${formatBytes(error.budgetBytes)}`;
    const why = `the answer is ${over} that fits the judge's context window: not judged`;
    return { answer: answer.text, coverage: { error: why } };
  }
}

function judgedSummary(judged: { coverage: CoverageResult | { error: string } }) {
  const { coverage } = judged;
  if (!("pointAssessments" in coverage)) return { coverage: null, error: coverage.error };
  return {
    coverage: coverage.avgCoverageExtent,
    ...(coverage.error === undefined ? {} : { error: coverage.error }),
  };
}

/**
 * Runs a blueprint (an object, validated here). A candidate that cannot answer a prompt, or a
 * point the judge cannot assess, is reported as an error in its place; the run goes on.
 *
 * @example
 * const run = await runBlueprint(blueprint, { models: ["ollama:qwen2.5:7b-instruct", "ollama:llama3.2"] });
 * console.log(run.evaluationResults.llmCoverageScores);
 */
export async function runBlueprint(
  input: unknown,
  options: RunBlueprintOptions = {},
): Promise<BlueprintRun> {
  const { blueprint, prompts } = prepareBlueprint(input);
  const candidates = candidatesOf(blueprint, options);
  const judge = resolveJudgeModel(options.judge, modelOptions(options));
  // Keyed by entries, never by assignment: a prompt id such as "__proto__" stays a key.
  const responses: Array<[string, Record<string, string>]> = [];
  const scores: Array<[string, Record<string, CoverageResult | { error: string }>]> = [];
  const count = { done: 0, total: prompts.length * candidates.length };
  for (const prompt of prompts) {
    const answers: Record<string, string> = {};
    const coverage: Record<string, CoverageResult | { error: string }> = {};
    responses.push([prompt.id, answers]);
    scores.push([prompt.id, coverage]);
    for (const { name, model } of candidates) {
      const pair = { promptId: prompt.id, model: name };
      options.onProgress?.({ phase: "asking", ...pair, ...count });
      const judged = await judgedAnswer(model, prompt, judge, blueprint.system, options);
      if (judged.answer !== undefined) answers[name] = judged.answer;
      coverage[name] = judged.coverage;
      count.done += 1;
      options.onProgress?.({ phase: "judged", ...pair, ...count, ...judgedSummary(judged) });
    }
  }
  const id = blueprint.configId ?? blueprint.id ?? "blueprint";
  return {
    configId: id,
    configTitle: blueprint.configTitle ?? blueprint.title ?? id,
    runLabel: options.runLabel ?? id,
    timestamp: (options.now?.() ?? new Date()).toISOString(),
    models: candidates.map((c) => c.name),
    judge: { model: judge.candidates[0]?.spec ?? "judge", seed: judge.settings.seed ?? null },
    promptIds: prompts.map((p) => p.id),
    promptTexts: Object.fromEntries(prompts.map((p) => [p.id, p.text])),
    allFinalAssistantResponses: Object.fromEntries(responses),
    evaluationResults: { llmCoverageScores: Object.fromEntries(scores) },
  };
}
