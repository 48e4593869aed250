/** `evalgate evaluate`: loads the catalog and the content, checks the model, judges, reports. */
import { resolve } from "node:path";
import { loadCatalog } from "../../criteria/load.js";
import { isLlmMethod } from "../../criteria/model.js";
import { contentBudgetBytes } from "../../engine/contentBudget.js";
import { isEvaluationModelError } from "../../engine/errors.js";
import type { EvaluationMode } from "../../engine/options.js";
import { isModelAbortedError } from "../../llm/errors.js";
import type { EvaluationResult } from "../../scoring/result.js";
import { checkedContentType } from "../contentTypes.js";
import type { CliContext } from "../context.js";
import { showGenerationProgress } from "../embeddedProgress.js";
import { CliError } from "../errors.js";
import { readEvaluationInput } from "../evaluationInput.js";
import { EXIT_FAILED, EXIT_OK } from "../exitCodes.js";
import { openFewShot } from "../fewShotSource.js";
import {
  ensureModelReady,
  explainModelFailure,
  type ModelTarget,
  resolveModelTarget,
} from "../modelCheck.js";
import { writeFileAtomically } from "../outputFile.js";
import { createProgressReporter } from "../progress.js";
import { type ReportFormat, renderReport } from "../report/render.js";

export interface EvaluateCommandOptions {
  catalog: string;
  model?: string;
  /** A panel's judges (two or more make a panel; instead of `model`). */
  judge?: string[];
  aggregate?: "median" | "mean" | "majority";
  minAgreement?: number;
  mode: EvaluationMode;
  format: ReportFormat;
  out?: string;
  documents?: string;
  contentType?: string;
  timeout?: number;
  concurrency?: number;
  trace?: string;
  /** The content budget in bytes (default: what fits the judge's context window). */
  maxContentBytes?: number;
  /** The sampling seed of every judge call (default: EVALGATE_SEED, else 42). */
  seed?: number;
  /** A SQLite file for the judge-call cache (`--db`); without it, no cache. */
  db?: string;
  /** false with --no-cache. */
  cache?: boolean;
  /** Show the judge the reviewers' corrections kept in --db as few-shot examples. */
  fewShot?: boolean;
}

/** Table width: the terminal's when stdout is one, else a width that reads well in a log. */
function tableWidth(context: CliContext): number {
  return context.stdout.isTTY === true && context.stdout.columns !== undefined
    ? context.stdout.columns
    : 120;
}

/** The judge's model target, or each panel judge's: `--judge` (repeated) or `--model`. */
function modelTargets(options: EvaluateCommandOptions, context: CliContext): ModelTarget[] {
  if (options.judge !== undefined && options.judge.length > 0 && options.model !== undefined) {
    throw new CliError("give either --model or --judge (repeated for a panel), not both");
  }
  const specs = options.judge?.length ? options.judge : [options.model];
  return specs.map((spec) => resolveModelTarget(spec, context.env));
}

/** Each model checked (and, where it must be, fetched) before any judging. */
async function readyTargets(targets: ModelTarget[], context: CliContext): Promise<ModelTarget[]> {
  const ready: ModelTarget[] = [];
  for (const each of targets) {
    ready.push(
      await ensureModelReady(each, {
        env: context.env,
        stderr: context.stderr,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      }),
    );
  }
  return ready;
}

/** The judge-call cache in the `--db` SQLite file; none without it, or with --no-cache. */
async function cacheStoreOf(options: EvaluateCommandOptions, at: (path: string) => string) {
  if (options.db === undefined || options.cache === false) return undefined;
  const { SqliteJudgeCacheStore } = await import("../../store/judgeCacheStore.js");
  return SqliteJudgeCacheStore.open(at(options.db));
}

export async function runEvaluate(
  inputPath: string,
  options: EvaluateCommandOptions,
  context: CliContext,
): Promise<void> {
  const at = (path: string) => resolve(context.cwd, path);
  const contentType =
    options.contentType === undefined ? undefined : checkedContentType(options.contentType);
  let targets = modelTargets(options, context);
  const catalog = await loadCatalog(at(options.catalog));
  const budgetBytes = options.maxContentBytes ?? contentBudgetBytes();
  const input = await readEvaluationInput(inputPath, options.documents, context.cwd, budgetBytes);
  if (catalog.criteria.some((criterion) => isLlmMethod(criterion.method))) {
    targets = await readyTargets(targets, context);
  }
  const [target] = targets as [ModelTarget, ...ModelTarget[]];
  const timeout = options.timeout ?? target.defaultTimeoutMs;
  // The engine and LangChain load only now: a missing model or a bad input is reported at once.
  const [{ evaluateContent }, { createChatModel }] = await Promise.all([
    import("../../engine/evaluateContent.js"),
    import("../../llm/chatModel.js"),
  ]);
  const judges = targets.map((each) =>
    createChatModel(each.spec, {
      env: context.env,
      ...(timeout === undefined ? {} : { timeoutMs: timeout }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    }),
  );
  const panel = {
    ...(options.aggregate === undefined ? {} : { aggregate: options.aggregate }),
    ...(options.minAgreement === undefined ? {} : { minAgreement: options.minAgreement }),
  };

  const progress = createProgressReporter(context.stderr, catalog);
  const stopGenerationProgress =
    target.provider === "llama-cpp" ? showGenerationProgress(context.stderr) : () => {};
  const cacheStore = await cacheStoreOf(options, at);
  const fewShot = await openFewShot(options, catalog, at);
  let result: EvaluationResult;
  try {
    result = await evaluateContent({
      content: input.content,
      catalog,
      ...(judges.length > 1 ? { judges, panel } : { model: judges[0] }),
      mode: options.mode,
      maxContentBytes: budgetBytes,
      onProgress: progress.onProgress,
      ...(input.documents === undefined ? {} : { documents: input.documents }),
      ...(contentType === undefined ? {} : { contentType }),
      ...(timeout === undefined ? {} : { timeoutMs: timeout }),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.trace === undefined ? {} : { traceFile: at(options.trace) }),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      ...(cacheStore === undefined ? {} : { cache: { store: cacheStore } }),
      ...(fewShot.option === undefined ? {} : { fewShot: fewShot.option }),
    });
  } catch (error) {
    stopGenerationProgress();
    progress.finish();
    if (isEvaluationModelError(error) && !isModelAbortedError(error.modelError)) {
      throw explainModelFailure(error, target);
    }
    throw error;
  } finally {
    await cacheStore?.close();
    await fewShot.close();
  }

  stopGenerationProgress();
  const report = renderReport(result, options.format, { width: tableWidth(context) });
  if (options.out === undefined) {
    context.stdout.write(report);
  } else {
    await writeFileAtomically(at(options.out), report);
    context.stderr.write(`wrote the ${options.format} report to ${options.out}\n`);
  }
  context.exitCode = result.passed ? EXIT_OK : EXIT_FAILED;
}
