/**
 * CriteriaEngine, PromptEvaluator and RubricExecutor given `rubricRegistry` judge with the active
 * registry version of their catalog, as evaluateContent does: a version with a raised threshold,
 * activated in a SQLite store, decides, and each view records `id@version`; `activate` rolls back.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Catalog, CatalogSchema } from "../../src/criteria/model.js";
import { CriteriaEngine } from "../../src/engine/apis/criteriaEngine.js";
import { PromptEvaluator, promptCatalog } from "../../src/engine/apis/promptEvaluator.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { createCatalogEvaluators } from "../../src/evaluators/catalogEvaluators.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import {
  judgeScoring,
  solutionQualityCatalog,
  withRaisedThreshold,
} from "../catalogs/solutionQuality.js";

/** One critical score criterion, feasibility; the catalog's threshold 0.5 is the criterion's. */
const FILE_CATALOG: Catalog = CatalogSchema.parse(solutionQualityCatalog({ critical: true }));

const EXPECTED = "Names Paris as the capital of France.";
const PROMPT_CATALOG = promptCatalog([], EXPECTED);
const CONTENT = "Install solar panels on the school roof in two phases.";

let dir = "";
let catalogFile = "";
let registry: RubricRegistry;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-apis-registry-"));
  registry = await RubricRegistry.open({ sqlitePath: join(dir, "registry.sqlite"), env: {} });
  await registry.add(FILE_CATALOG);
  await registry.add(withRaisedThreshold(FILE_CATALOG, 0.61));
  await registry.add(PROMPT_CATALOG);
  await registry.add(withRaisedThreshold(PROMPT_CATALOG, 0.9));
  catalogFile = join(dir, "solution_quality.json");
  await writeFile(catalogFile, JSON.stringify(FILE_CATALOG));
  await mkdir(join(dir, "projects", "school-solar"), { recursive: true });
  await writeFile(join(dir, "projects", "school-solar", "plan.md"), `# Plan\n\n${CONTENT}\n`);
});

afterAll(async () => {
  await registry?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("CriteriaEngine with a rubric registry", () => {
  const engine = (withRegistry: boolean) =>
    new CriteriaEngine({
      model: judgeScoring(0.6),
      dataDir: join(dir, "projects"),
      injectionGuard: false,
      ...(withRegistry ? { rubricRegistry: registry } : {}),
    });

  it("evaluateProject: 0.6 passes at the file's 0.50 and fails at the active 0.61", async () => {
    const fromFile = await engine(false).evaluateProject("school-solar", catalogFile);
    expect(fromFile.passed).toBe(true);
    expect(fromFile.catalog.registryVersion).toBeUndefined();

    const fromRegistry = await engine(true).evaluateProject("school-solar", catalogFile);
    expect(fromRegistry.passed).toBe(false);
    expect(fromRegistry.criteria[0]).toMatchObject({ score: 0.6, threshold: 0.61, met: false });
    expect(fromRegistry.catalog.registryVersion).toBe("solution_quality@1.0.1");
    for (const trace of fromRegistry.traces) {
      expect(trace.registryVersion).toBe("solution_quality@1.0.1");
    }
  });

  it("evaluateCriterion: the named catalog's active criterion decides, and activate rolls back", async () => {
    const [criterion] = FILE_CATALOG.criteria;
    if (criterion === undefined) throw new Error("the fixture has a criterion");
    const options = { catalog: FILE_CATALOG };
    const fromFile = await engine(false).evaluateCriterion(criterion, CONTENT, options);
    expect(fromFile).toMatchObject({ score: 0.6, met: true });
    expect(fromFile.registryVersion).toBeUndefined();

    const fromRegistry = await engine(true).evaluateCriterion(criterion, CONTENT, options);
    expect(fromRegistry).toMatchObject({ score: 0.6, threshold: 0.61, met: false });
    expect(fromRegistry.registryVersion).toBe("solution_quality@1.0.1");
    expect(fromRegistry.traces.map((t) => t.registryVersion)).toEqual(
      fromRegistry.traces.map(() => "solution_quality@1.0.1"),
    );

    await registry.activate("solution_quality", "1.0.0");
    try {
      const rolledBack = await engine(true).evaluateCriterion(criterion, CONTENT, options);
      expect(rolledBack).toMatchObject({ met: true, registryVersion: "solution_quality@1.0.0" });
    } finally {
      await registry.activate("solution_quality", "1.0.1");
    }
  });
});

describe("RubricExecutor with a rubric registry", () => {
  it("judges the rubric's active version: 0.6 passes at 0.50 and fails at 0.61", async () => {
    const executor = (withRegistry: boolean) =>
      new RubricExecutor({
        llm: judgeScoring(0.6),
        ...(withRegistry ? { rubricRegistry: registry } : {}),
      });
    const fromFile = await executor(false).evaluate(FILE_CATALOG, CONTENT);
    expect(fromFile.passed).toBe(true);
    expect(fromFile.rubric_version).toBe("1.0.0");
    expect(fromFile.registry_version).toBeUndefined();

    const fromRegistry = await executor(true).evaluate(FILE_CATALOG, CONTENT);
    expect(fromRegistry.passed).toBe(false);
    expect(fromRegistry.criterion_results[0]).toMatchObject({ criterion_id: "feasibility" });
    expect(fromRegistry.rubric_version).toBe("1.0.1");
    expect(fromRegistry.registry_version).toBe("solution_quality@1.0.1");
  });
});

describe("PromptEvaluator with a rubric registry", () => {
  it("judges its catalog's active version: 0.85 passes at 0.8 and fails at 0.9", async () => {
    // The file's catalog: the freeform criterion at the pass band 0.8, 0.85 ≥ 0.8 → pass. The
    // active version makes it critical at 0.9: 0.85 < 0.9, a critical criterion unmet → fail.
    const evaluator = (withRegistry: boolean) =>
      new PromptEvaluator({
        model: judgeScoring(0.85),
        injectionGuard: false,
        ...(withRegistry ? { rubricRegistry: registry } : {}),
      });
    const input = {
      question: "What is the capital of France?",
      candidateAnswer: "Paris.",
      expectedOutcome: EXPECTED,
    };
    const fromFile = await evaluator(false).evaluate(input);
    expect(fromFile).toMatchObject({ verdict: "pass", score: 0.85 });
    expect(fromFile.registryVersion).toBeUndefined();

    const fromRegistry = await evaluator(true).evaluate(input);
    expect(fromRegistry).toMatchObject({ verdict: "fail", score: 0.85 });
    expect(fromRegistry.registryVersion).toBe("prompt-evaluator@2");
    expect(fromRegistry.trace?.registryVersion).toBe("prompt-evaluator@2");
  });
});

describe("createCatalogEvaluators with a rubric registry", () => {
  it("scores every example with the version active when the evaluators were made", async () => {
    const made = (withRegistry: boolean) =>
      createCatalogEvaluators(catalogFile, {
        model: judgeScoring(0.6),
        injectionGuard: false,
        ...(withRegistry ? { rubricRegistry: registry } : {}),
      });
    const example = { outputs: { output: CONTENT } };
    const fromFile = await (await made(false)).evaluationOf(example);
    expect(fromFile.passed).toBe(true);

    const fromRegistry = await (await made(true)).evaluationOf(example);
    expect(fromRegistry.passed).toBe(false);
    expect(fromRegistry.criteria[0]).toMatchObject({ threshold: 0.61, met: false });
    expect(fromRegistry.catalog.registryVersion).toBe("solution_quality@1.0.1");
  });
});
