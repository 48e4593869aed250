/** `evalgate blueprint run <file>`: every model checked first, then prompts × models judged. */

import { dirname, resolve } from "node:path";
import type { PreparedPrompt } from "../../blueprints/blueprint.js";
import { BlueprintError } from "../../blueprints/errors.js";
import type { BlueprintRun } from "../../blueprints/result.js";
import { FunctionRegistry } from "../../checks/registry.js";
import { checkCatalogReferences } from "../../criteria/references.js";
import type { CliContext } from "../context.js";
import { EXIT_FAILED, EXIT_OK } from "../context.js";
import { readyModel } from "../modelCheck.js";
import { checkOutFile, writeOutput } from "../outputFile.js";
import { createBlueprintProgress } from "../progress.js";
import { coveragePasses, renderBlueprintJunit } from "../report/junitBlueprint.js";

export interface BlueprintRunCommandOptions {
  models?: string;
  judge?: string;
  format: "json" | "toon" | "junit";
  out?: string;
  /** Exit 1 when an average coverage is under this (0–1); the JUnit testcases' threshold. */
  failUnder?: number;
  seed?: number;
  timeout?: number;
}

/** The pairs not answered (or not fully judged), held for review, and under --fail-under. */
function pairOutcomes(run: BlueprintRun, failUnder: number | undefined) {
  const count = { failed: 0, held: 0, under: [] as string[] };
  for (const [promptId, byModel] of Object.entries(run.evaluationResults.llmCoverageScores)) {
    for (const [model, coverage] of Object.entries(byModel)) {
      if (coverage.error !== undefined) count.failed += 1;
      if ("humanReviewRequired" in coverage && coverage.humanReviewRequired) count.held += 1;
      if (failUnder !== undefined && !coveragePasses(coverage, failUnder)) {
        count.under.push(`${promptId} × ${model}`);
      }
    }
  }
  return count;
}

/** The comparison document in the format asked for. */
function renderRun(
  run: BlueprintRun,
  options: BlueprintRunCommandOptions,
  encodeToon: (value: unknown) => string,
): string {
  if (options.format === "junit") return renderBlueprintJunit(run, options.failUnder);
  return options.format === "toon" ? `${encodeToon(run)}\n` : `${JSON.stringify(run, null, 2)}\n`;
}

/** Every candidate checked (results stay keyed by the specs as given), then the judge. */
async function readyJudge(
  models: readonly string[],
  judge: string | undefined,
  context: CliContext,
) {
  const candidate = {
    what: "candidate model",
    instead: 'name pulled models with --models (or the blueprint\'s "models")',
  };
  for (const spec of models) await readyModel(spec, context, candidate);
  return readyModel(judge, context, {
    what: "judge model",
    instead: "set EVALGATE_MODEL (or --judge ollama:<name>) to a pulled model",
  });
}

/** Every module a point names is a file in the blueprint's folder (nothing imported yet). */
async function checkFunctionFiles(prompts: readonly PreparedPrompt[], path: string) {
  for (const [index, prompt] of prompts.entries()) {
    const folder = "the blueprint's folder";
    const [problem] = await checkCatalogReferences(
      prompt.catalog,
      dirname(path),
      undefined,
      folder,
    );
    if (problem === undefined) continue;
    const at = prompt.plan.placement[Number(problem.path[1])]?.at ?? "points";
    throw new BlueprintError(`${path} › prompts[${index}].${at}`, problem.message);
  }
}

/** `evalgate blueprint run <file>`: the comparison document as JSON or TOON. */
export async function runBlueprintCommand(
  file: string,
  options: BlueprintRunCommandOptions,
  context: CliContext,
): Promise<void> {
  const [{ loadBlueprint, prepareBlueprint, runBlueprint }, { encode: encodeToon }] =
    await Promise.all([import("../../blueprints/index.js"), import("@toon-format/toon")]);
  const path = resolve(context.cwd, file);
  checkOutFile(options.out, [["blueprint", file]], context.cwd);
  const blueprint = await loadBlueprint(path);
  // Its points checked first: a broken blueprint is named as such, whatever the models.
  await checkFunctionFiles(prepareBlueprint(blueprint, path).prompts, path);
  // A point's module:function is a file of the blueprint's folder, never the working folder's.
  const registry = new FunctionRegistry({ baseDir: dirname(path) });
  const given = options.models
    ?.split(",")
    .map((spec) => spec.trim())
    .filter((spec) => spec !== "");
  const models = given === undefined || given.length === 0 ? (blueprint.models ?? []) : given;
  if (models.length === 0) {
    const how = `give them with --models, or as the blueprint's "models"`;
    throw new BlueprintError(path, `no candidate model: ${how}`);
  }
  const judge = await readyJudge(models, options.judge, context);
  const timeoutMs = options.timeout ?? judge.defaultTimeoutMs;
  const progress = createBlueprintProgress(context.stderr);
  const run = await runBlueprint(blueprint, {
    env: context.env,
    ...(given === undefined || given.length === 0 ? {} : { models: given }),
    judge: judge.spec,
    registry,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    onProgress: progress.onProgress,
  }).finally(progress.finish);
  const text = renderRun(run, options, encodeToon);
  await writeOutput(text, options.out, `the ${options.format} result`, context);
  const { failed, held, under } = pairOutcomes(run, options.failUnder);
  const total = run.models.length * run.promptIds.length;
  if (failed > 0) {
    context.stderr.write(
      `${failed} of ${total} answers could not be given or fully judged: see their "error" in the result\n`,
    );
  }
  if (held > 0) {
    context.stderr.write(
      `${held} of ${total} answers are held for human review: see their "humanReviewReasons" in the result\n`,
    );
  }
  if (under.length > 0) {
    context.stderr.write(
      `--fail-under ${options.failUnder}: average coverage under it, or none, for ${under.join(", ")}\n`,
    );
  }
  context.exitCode = failed > 0 || held > 0 || under.length > 0 ? EXIT_FAILED : EXIT_OK;
}
