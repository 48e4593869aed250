/** `evalgate evaluate`: loads the catalog and the content, checks the model, judges, reports. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { activeCatalog } from "../../criteria/activeCatalog.js";
import { loadCatalog } from "../../criteria/load.js";
import { type Catalog, isLlmMethod } from "../../criteria/model.js";
import { contentBudgetBytes } from "../../engine/contentBudget.js";
import type { EvaluationModelError } from "../../engine/errors.js";
import type { EvaluationMode } from "../../engine/options.js";
import { isModelAbortedError } from "../../llm/errors.js";
import type { EvaluationResult } from "../../scoring/result.js";
import { type CliContext, EXIT_FAILED, EXIT_OK, terminalWidth } from "../context.js";
import { CliError, type ModelNotReadyError, refuseUrlAsFile } from "../errors.js";
import { openFewShot } from "../fewShotSource.js";
import {
  checkedContentType,
  type EvaluationInput,
  linkPolicyOf,
  readEvaluationInput,
} from "../inputFiles.js";
import { explainModelFailure, type ModelTarget, readyModel } from "../modelCheck.js";
import { resolveModelTarget } from "../modelChoice.js";
import { checkOutFile, writeOutput } from "../outputFile.js";
import { type PanelFlags, panelOptions, panelSettingOf } from "../panelJudges.js";
import { createProgressReporter, showGenerationProgress } from "../progress.js";
import {
  type EvaluateFormat,
  renderEvaluationReports,
  severalFilesProblem,
} from "../report/evaluationReports.js";
import type { EvaluatedFile } from "../report/junit.js";
import { scoreGate } from "../report/scoreGate.js";

export interface EvaluateCommandOptions extends PanelFlags {
  catalog: string;
  model?: string;
  mode: EvaluationMode;
  format: EvaluateFormat;
  out?: string;
  /** Exit 1 when an overall score is under this (0–1), or there is none (see scoreGate). */
  failUnder?: number;
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
  cache?: boolean;
  /** Show the judge the reviewers' corrections kept in --db as few-shot examples. */
  fewShot?: boolean;
  /** Probability-weighted scores where the model server gives token log-probabilities. */
  weightedScores?: boolean;
}

/** The judge's model target, or each panel judge's: `--judge` (repeated) or `--model`. */
function modelTargets(options: EvaluateCommandOptions, context: CliContext): ModelTarget[] {
  if (options.judge !== undefined && options.judge.length > 0 && options.model !== undefined) {
    throw new CliError("give either --model or --judge (repeated for a panel), not both");
  }
  const judges = panelSettingOf(options)?.judges;
  const flag = judges === undefined ? "--model" : "--judge";
  return (judges ?? [options.model]).map((spec) => resolveModelTarget(spec, context.env, flag));
}

async function cacheStoreOf(options: EvaluateCommandOptions, at: (path: string) => string) {
  if (options.db === undefined || options.cache === false) return undefined;
  const { SqliteJudgeCacheStore } = await import("../../store/judgeCacheStore.js");
  return SqliteJudgeCacheStore.open(at(options.db));
}

/** With --db, the registry's active version of the catalog's id, when it holds one. */
async function gateCatalog(
  file: Catalog,
  options: EvaluateCommandOptions,
  context: CliContext,
): Promise<Catalog> {
  const path = options.db === undefined ? undefined : resolve(context.cwd, options.db);
  // A file that is not there yet holds no registry: it is not made just to be read.
  if (path === undefined || !existsSync(path)) return file;
  const { withRubricRegistry } = await import("../review/store.js");
  const catalog = await withRubricRegistry({ kind: "sqlite", path }, (rubrics) =>
    activeCatalog(file, rubrics),
  );
  if (catalog.registryVersion !== undefined) {
    context.stderr.write(
      `judging with ${catalog.registryVersion}, the active version in the rubric registry of ${options.db}\n`,
    );
  }
  return catalog;
}

/** What every file's evaluation shares: the catalog, the judges, the options for the engine. */
type EvaluateContentOptions = Parameters<
  typeof import("../../engine/evaluateContent.js").evaluateContent
>[0];
type SharedOptions = Omit<EvaluateContentOptions, "content" | "documents" | "onProgress">;

/** One file's evaluation: its result, and the model error when no judge call succeeded. */
interface FileEvaluation {
  result: EvaluationResult;
  modelFailure?: EvaluationModelError;
}

/**
 * One input's evaluation, with its progress on stderr (a line naming the file when several). A
 * judge that could not answer at all still gives the result (each LLM criterion a judge error, the
 * deterministic ones evaluated); only a cancelled call throws.
 */
async function evaluateOne(
  input: EvaluationInput,
  shown: string,
  shared: SharedOptions,
  context: { stderr: CliContext["stderr"]; target: ModelTarget; several: boolean },
): Promise<FileEvaluation> {
  const { runEvaluation } = await import("../../engine/evaluateContent.js");
  if (context.several) context.stderr.write(`${shown}:\n`);
  const progress = createProgressReporter(context.stderr, shared.catalog);
  const stopGenerationProgress =
    context.target.provider === "llama-cpp" ? showGenerationProgress(context.stderr) : () => {};
  try {
    const run = await runEvaluation({
      ...shared,
      content: input.content,
      onProgress: progress.onProgress,
      ...(input.documents === undefined ? {} : { documents: input.documents }),
      ...(input.kind === "project" ? { projectFolder: shown } : {}),
    });
    if (run.modelFailure !== undefined && isModelAbortedError(run.modelFailure.modelError)) {
      throw run.modelFailure;
    }
    return run;
  } catch (error) {
    progress.finish();
    throw error;
  } finally {
    stopGenerationProgress();
  }
}

/** The report to stdout or --out; with --fail-under, why each file failed the gate on stderr. */
async function report(
  files: EvaluatedFile[],
  options: EvaluateCommandOptions,
  context: CliContext,
): Promise<void> {
  const text = renderEvaluationReports(files, options.format, {
    width: terminalWidth(context.stdout, 120),
    ...(options.failUnder === undefined ? {} : { failUnder: options.failUnder }),
  });
  await writeOutput(text, options.out, `the ${options.format} report`, context);
  let failed = 0;
  for (const each of files) {
    const gate = scoreGate(each.result, options.failUnder);
    if (gate.passed) continue;
    failed += 1;
    if (options.failUnder !== undefined) {
      context.stderr.write(`--fail-under: ${each.file}: ${gate.reasons.join("; ")}\n`);
    }
  }
  context.exitCode = failed > 0 ? EXIT_FAILED : EXIT_OK;
}

/** Before anything is read: a URL as --db, several files for a one-file format, --out over an input. */
function refuseBadPaths(paths: string[], options: EvaluateCommandOptions, cwd: string): void {
  refuseUrlAsFile(options.db, {
    name: "--db",
    takes: "a SQLite file",
    instead: "evaluate keeps its judge answers in a SQLite file only (it has no --database-url)",
  });
  const several = severalFilesProblem(options.format, paths.length);
  if (several !== undefined) throw new CliError(several);
  const { catalog, db, trace } = options;
  const inputs: [string, string | undefined][] = paths.map((p) => ["content file", p]);
  inputs.push(["catalog", catalog], ["--db file", db], ["--trace file", trace]);
  checkOutFile(options.out, inputs, cwd);
}

/**
 * Every input read and the model checked first; exit 1 when some result fails the gate. A model
 * that fails during the run ends it: the report of the files evaluated, then the error (exit 2).
 */
export async function runEvaluate(
  inputPaths: string | readonly string[],
  options: EvaluateCommandOptions,
  context: CliContext,
): Promise<void> {
  const paths = typeof inputPaths === "string" ? [inputPaths] : [...inputPaths];
  const at = (path: string) => resolve(context.cwd, path);
  refuseBadPaths(paths, options, context.cwd);
  const contentType =
    options.contentType === undefined ? undefined : checkedContentType(options.contentType);
  let targets = modelTargets(options, context);
  const links = linkPolicyOf(context.env);
  const catalog = await gateCatalog(
    await loadCatalog(at(options.catalog), links),
    options,
    context,
  );
  const budgetBytes = options.maxContentBytes ?? contentBudgetBytes();
  const inputs: EvaluationInput[] = [];
  for (const path of paths) {
    inputs.push(
      await readEvaluationInput(path, options.documents, context.cwd, budgetBytes, links),
    );
  }
  if (catalog.criteria.some((criterion) => isLlmMethod(criterion.method))) {
    // Each model checked (and, where it must be, fetched) before any judging.
    const ready: ModelTarget[] = [];
    for (const each of targets) ready.push(await readyModel(each, context));
    targets = ready;
  }
  const [target] = targets as [ModelTarget, ...ModelTarget[]];
  const timeout = options.timeout ?? target.defaultTimeoutMs;
  // LangChain loads only now: a missing model or a bad input is reported at once.
  const { createChatModel } = await import("../../llm/chatModel.js");
  const judges = targets.map((each) =>
    createChatModel(each.spec, {
      env: context.env,
      ...(timeout === undefined ? {} : { timeoutMs: timeout }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    }),
  );
  const panel = panelOptions(options);
  const cacheStore = await cacheStoreOf(options, at);
  const fewShot = await openFewShot(options, catalog, at);
  const shared: SharedOptions = {
    catalog,
    ...(judges.length > 1 ? { judges, panel } : { model: judges[0] }),
    mode: options.mode,
    maxContentBytes: budgetBytes,
    ...(contentType === undefined ? {} : { contentType }),
    ...(timeout === undefined ? {} : { timeoutMs: timeout }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.trace === undefined ? {} : { traceFile: at(options.trace) }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    ...(cacheStore === undefined ? {} : { cache: { store: cacheStore } }),
    ...(fewShot.option === undefined ? {} : { fewShot: fewShot.option }),
    ...(options.weightedScores === true ? { weightedScores: true } : {}),
  };
  try {
    const run = { paths, shared, target, contentType, stderr: context.stderr };
    const { files, stopped } = await evaluateFiles(inputs, run);
    await report(files, options, context);
    if (stopped !== undefined) throw modelStopError(stopped, context);
  } finally {
    await cacheStore?.close();
    await fewShot.close();
  }
}

/**
 * Each input in turn. A model that could not answer one file will not answer the next: the run
 * stops there, that file's result kept (its deterministic criteria evaluated).
 */
async function evaluateFiles(
  inputs: readonly EvaluationInput[],
  run: {
    paths: readonly string[];
    shared: SharedOptions;
    target: ModelTarget;
    contentType: string | undefined;
    stderr: CliContext["stderr"];
  },
): Promise<{ files: EvaluatedFile[]; stopped?: ModelStop }> {
  const files: EvaluatedFile[] = [];
  const { contentType, target } = run;
  for (const [index, input] of inputs.entries()) {
    const shown = run.paths[index] as string;
    const each = { stderr: run.stderr, target, several: inputs.length > 1 };
    const { result, modelFailure } = await evaluateOne(input, shown, run.shared, each);
    files.push({ file: shown, result, ...(contentType === undefined ? {} : { contentType }) });
    if (modelFailure !== undefined) {
      const error = explainModelFailure(modelFailure, target);
      return { files, stopped: { error, left: run.paths.slice(index + 1) } };
    }
  }
  return { files };
}

/** The judge model failed on a file: the files after it, and the error explained as the check's. */
interface ModelStop {
  error: ModelNotReadyError;
  left: string[];
}

/** After the report: the files not evaluated on stderr; the error to exit 2 with. */
function modelStopError(stopped: ModelStop, context: CliContext): ModelNotReadyError {
  if (stopped.left.length > 0) {
    context.stderr.write(
      `not evaluated (the judge model could not answer): ${stopped.left.join(", ")}\n`,
    );
  }
  return stopped.error;
}
