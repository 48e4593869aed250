/** `evalgate evaluate`: loads the catalog and the content, checks the model, judges, reports. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { activeCatalog } from "../../criteria/activeCatalog.js";
import { loadCatalog } from "../../criteria/load.js";
import { type Catalog, isLlmMethod } from "../../criteria/model.js";
import { contentBudgetBytes } from "../../engine/contentBudget.js";
import type { EvaluationMode } from "../../engine/options.js";
import { isModelAbortedError } from "../../llm/errors.js";
import { type CliContext, EXIT_FAILED, EXIT_OK, terminalWidth } from "../context.js";
import { CliError, InputFileError, type ModelNotReadyError, refuseUrlAsFile } from "../errors.js";
import {
  checkedContentType,
  type EvaluationInput,
  linkPolicyOf,
  readEvaluationInput,
} from "../inputFiles.js";
import {
  explainModelFailure,
  type ModelTarget,
  readyModel,
  resolveModelTarget,
} from "../modelCheck.js";
import { checkOutFile, writeOutput } from "../outputFile.js";
import { type PanelFlags, panelOptions, panelSettingOf } from "../panelJudges.js";
import { createProgressReporter, showGenerationProgress } from "../progress.js";
import { renderEvaluationReports, severalFilesProblem } from "../report/evaluationReports.js";
import type { EvaluateFormat } from "../report/formats.js";
import type { EvaluatedFile } from "../report/junit.js";
import { scoreGate } from "../report/summary.js";

export interface EvaluateCommandOptions extends PanelFlags {
  catalog: string;
  model?: string;
  mode: EvaluationMode;
  format: EvaluateFormat;
  out?: string;
  failUnder?: number;
  documents?: string;
  contentType?: string;
  timeout?: number;
  concurrency?: number;
  trace?: string;
  maxContentBytes?: number;
  seed?: number;
  db?: string;
  cache?: boolean;
  fewShot?: boolean;
  weightedScores?: boolean;
}

/** The judge's model target, or each panel judge's: `--judge` (repeated) or `--model`. */
function modelTargets(options: EvaluateCommandOptions, context: CliContext): ModelTarget[] {
  if ((options.judge?.length ?? 0) > 0 && options.model !== undefined) {
    throw new CliError("give either --model or --judge (repeated for a panel), not both");
  }
  const judges = panelSettingOf(options)?.judges;
  const flag = judges === undefined ? "--model" : "--judge";
  return (judges ?? [options.model]).map((spec) => resolveModelTarget(spec, context.env, flag));
}

/** `--few-shot` (or a catalog that asks for them): the reviewers' corrections kept in --db. */
async function openFewShot(
  options: EvaluateCommandOptions,
  catalog: Catalog,
  at: (path: string) => string,
) {
  const none = { option: undefined, close: async () => {} };
  if (options.fewShot !== true && catalog.fewShot?.enabled !== true) return none;
  if (options.db === undefined) {
    if (options.fewShot !== true) return none;
    throw new CliError("--few-shot reads the reviewers' corrections from a --db <file>");
  }
  const path = at(options.db);
  if (!existsSync(path)) throw new InputFileError("--db file", options.db, "does not exist");
  const [{ openReviewStore, SqliteTraceStore }, { storeExampleSource }, { default: Database }] =
    await Promise.all([
      import("../../store/index.js"),
      import("../../calibration/fewShot.js"),
      import("better-sqlite3"),
    ]);
  const store = await openReviewStore({ sqlitePath: path });
  const db = new Database(path, { fileMustExist: true });
  const source = storeExampleSource(store, new SqliteTraceStore(db));
  return {
    option: { source, ...(options.fewShot === true ? { enabled: true } : {}) },
    close: async () => {
      db.close();
      await store.close();
    },
  };
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
type SharedOptions = Omit<
  Parameters<typeof import("../../engine/evaluateContent.js").evaluateContent>[0],
  "content" | "documents" | "onProgress"
>;

/**
 * One input's evaluation, with its progress on stderr. A judge that could not answer at all still
 * gives the result (each LLM criterion a judge error, the deterministic ones evaluated); only a
 * cancelled call throws.
 */
async function evaluateOne(
  input: EvaluationInput,
  shown: string,
  shared: SharedOptions,
  target: ModelTarget,
  stderr: CliContext["stderr"],
) {
  const { runEvaluation } = await import("../../engine/evaluateContent.js");
  const progress = createProgressReporter(stderr, shared.catalog);
  const stopGenerationProgress =
    target.provider === "llama-cpp" ? showGenerationProgress(stderr) : () => {};
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
  const inputs = paths.map((p): [string, string | undefined] => ["content file", p]);
  checkOutFile(
    options.out,
    [
      ...inputs,
      ["catalog", options.catalog],
      ["--db file", options.db],
      ["--trace file", options.trace],
    ],
    cwd,
  );
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
  const { cwd } = context;
  const at = (path: string) => resolve(cwd, path);
  refuseBadPaths(paths, options, cwd);
  const contentType =
    options.contentType === undefined ? undefined : checkedContentType(options.contentType);
  let targets = modelTargets(options, context);
  const links = linkPolicyOf(context.env);
  const file = await loadCatalog(at(options.catalog), links);
  const catalog = await gateCatalog(file, options, context);
  const budgetBytes = options.maxContentBytes ?? contentBudgetBytes();
  const inputs: EvaluationInput[] = [];
  for (const path of paths)
    inputs.push(await readEvaluationInput(path, options.documents, cwd, budgetBytes, links));
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
  const cacheStore =
    options.db === undefined || options.cache === false
      ? undefined
      : await (await import("../../store/judgeCacheStore.js")).SqliteJudgeCacheStore.open(
          at(options.db),
        );
  const fewShot = await openFewShot(options, catalog, at);
  const shared: SharedOptions = {
    catalog,
    ...(judges.length > 1 ? { judges, panel } : { model: judges[0] }),
    mode: options.mode,
    maxContentBytes: budgetBytes,
    contentType,
    timeoutMs: timeout,
    concurrency: options.concurrency,
    signal: context.signal,
    fewShot: fewShot.option,
    ...(options.trace === undefined ? {} : { traceFile: at(options.trace) }),
    ...(cacheStore === undefined ? {} : { cache: { store: cacheStore } }),
    ...(options.weightedScores === true ? { weightedScores: true } : {}),
  };
  try {
    const { files, stopped } = await evaluateFiles(inputs, paths, shared, target, context.stderr);
    await report(files, options, context);
    if (stopped !== undefined) {
      const left = paths.slice(files.length);
      if (left.length > 0) {
        context.stderr.write(
          `not evaluated (the judge model could not answer): ${left.join(", ")}\n`,
        );
      }
      throw stopped;
    }
  } finally {
    await cacheStore?.close();
    await fewShot.close();
  }
}

/** Each input in turn; a model that could not answer one file stops the run there. */
async function evaluateFiles(
  inputs: readonly EvaluationInput[],
  paths: readonly string[],
  shared: SharedOptions,
  target: ModelTarget,
  stderr: CliContext["stderr"],
): Promise<{ files: EvaluatedFile[]; stopped?: ModelNotReadyError }> {
  const files: EvaluatedFile[] = [];
  for (const [index, input] of inputs.entries()) {
    const file = paths[index] as string;
    if (inputs.length > 1) stderr.write(`${file}:\n`);
    const { result, modelFailure } = await evaluateOne(input, file, shared, target, stderr);
    files.push({ file, result, contentType: shared.contentType });
    if (modelFailure !== undefined)
      return { files, stopped: explainModelFailure(modelFailure, target) };
  }
  return { files };
}
