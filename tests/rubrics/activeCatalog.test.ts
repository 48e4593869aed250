/**
 * The registry is the catalogs' home: a gate judges with the active registry version of its
 * catalog's id (recorded as id@version in the result and every trace), the catalog as given when
 * the registry does not hold that id or there is no registry; `activate` rolls back.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeCatalog } from "../../src/criteria/activeCatalog.js";
import { loadCatalog } from "../../src/criteria/load.js";
import { type Catalog, CatalogSchema } from "../../src/criteria/model.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { isEvalgateError } from "../../src/errors.js";
import { loadStageCatalog } from "../../src/graph/criteriaLocation.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import { evaluationRow, tracesOfEvaluationRows } from "../../src/store/leanTrace.js";
import {
  judgeScoring,
  solutionQualityCatalog,
  withRaisedThreshold,
} from "../catalogs/solutionQuality.js";

/** One critical score criterion; the catalog's threshold 0.5 is the criterion's. */
const FILE_CATALOG: Catalog = CatalogSchema.parse({
  ...solutionQualityCatalog({ critical: true }),
  source: "/somewhere/solution_quality.json",
});

/** The version calibrate --apply would write: feasibility's threshold raised to 0.61. */
const RAISED: Catalog = withRaisedThreshold(FILE_CATALOG, 0.61);

let dir = "";
let registry: RubricRegistry;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-active-"));
  registry = await RubricRegistry.open({ sqlitePath: join(dir, "registry.sqlite"), env: {} });
  await registry.add(FILE_CATALOG);
  await registry.add(RAISED);
});

afterAll(async () => {
  await registry?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("activeCatalog", () => {
  it("gives the registry's active version of the catalog's id, marked id@version", async () => {
    const active = await activeCatalog(FILE_CATALOG, registry);
    expect(active.version).toBe("1.0.1");
    expect(active.registryVersion).toBe("solution_quality@1.0.1");
    expect(active.criteria[0]?.passingThreshold).toBe(0.61);
  });

  it("gives the catalog as given when the registry does not hold its id, or there is none", async () => {
    const other = { ...FILE_CATALOG, id: "not_registered" };
    expect(await activeCatalog(other, registry)).toBe(other);
    expect(await activeCatalog(FILE_CATALOG, undefined)).toBe(FILE_CATALOG);
  });

  it("follows activate back to an earlier version, and refuses a version never stored", async () => {
    await registry.activate("solution_quality", "1.0.0");
    try {
      const active = await activeCatalog(FILE_CATALOG, registry);
      expect(active.registryVersion).toBe("solution_quality@1.0.0");
      expect(active.criteria[0]?.passingThreshold).toBeUndefined();
      const refused = await registry.activate("solution_quality", "9.9.9").catch((e) => e);
      expect(isEvalgateError(refused, "RUBRIC_NOT_FOUND")).toBe(true);
      expect((await activeCatalog(FILE_CATALOG, registry)).version).toBe("1.0.0");
    } finally {
      await registry.activate("solution_quality", "1.0.1");
    }
  });

  it("is where a graph stage's catalog comes from when the stage has a registry", async () => {
    const file = join(dir, "solution_quality.json");
    await writeFile(file, JSON.stringify({ ...FILE_CATALOG, source: undefined }));
    const withRegistry = await loadStageCatalog(file, "solution", undefined, false, registry);
    expect(withRegistry.catalog.registryVersion).toBe("solution_quality@1.0.1");
    expect(withRegistry.file).toBe(file);
    const without = await loadStageCatalog(file, "solution");
    expect(without.catalog.registryVersion).toBeUndefined();
    expect(without.catalog.criteria[0]?.passingThreshold).toBeUndefined();
  });
});

describe("evaluateContent with a rubric registry", () => {
  const content = "Install solar panels on the school roof in two phases.";

  it("judges with the active version: 0.6 passes at 0.50 and fails at 0.61", async () => {
    // Without the registry, the file's threshold 0.5 decides: 0.6 ≥ 0.5, critical met, overall
    // 0.6 ≥ 0.5 → passed. With it, version 1.0.1's 0.61 decides: 0.6 < 0.61, a critical
    // criterion unmet → not passed, verdict fail.
    const fromFile = await evaluateContent({
      content,
      catalog: FILE_CATALOG,
      model: judgeScoring(0.6),
    });
    expect(fromFile.passed).toBe(true);
    expect(fromFile.catalog).toEqual({
      id: "solution_quality",
      version: "1.0.0",
      name: "Solution quality",
    });
    expect(fromFile.traces.every((t) => t.registryVersion === undefined)).toBe(true);

    const fromRegistry = await evaluateContent({
      content,
      catalog: FILE_CATALOG,
      model: judgeScoring(0.6),
      rubricRegistry: registry,
    });
    expect(fromRegistry.passed).toBe(false);
    expect(fromRegistry.verdict).toBe("fail");
    expect(fromRegistry.criteria[0]).toMatchObject({ score: 0.6, threshold: 0.61, met: false });
    expect(fromRegistry.catalog).toMatchObject({
      version: "1.0.1",
      registryVersion: "solution_quality@1.0.1",
    });
    // Every model call (the judge's and the guard's) records the version it judged with.
    expect(fromRegistry.traces.length).toBeGreaterThan(0);
    for (const trace of fromRegistry.traces) {
      expect(trace.registryVersion).toBe("solution_quality@1.0.1");
    }
  });

  it("keeps the registry version of every trace in the trace store", async () => {
    const result = await evaluateContent({
      content,
      catalog: FILE_CATALOG,
      model: judgeScoring(0.7),
      rubricRegistry: registry,
    });
    const row = evaluationRow(result.traces);
    const blobs = new Map(row.blobs);
    const [read] = await tracesOfEvaluationRows([row.body], async () => blobs);
    expect(read).toEqual(result.traces);
    expect(read?.map((t) => t.registryVersion)).toEqual(
      result.traces.map(() => "solution_quality@1.0.1"),
    );
  });
});

describe("a registry version of a catalog with a module:function criterion", () => {
  it("finds the module beside the catalog file the gate was given, as without a store", async () => {
    const folder = join(dir, "words");
    await mkdir(folder);
    // The module beside the catalog passes content over 10 characters; a module of the same name
    // in the working directory (the repository, where the test runs) is never the one asked.
    await writeFile(
      join(folder, "checks.mjs"),
      "export const long = (c) => String(c).length > 10;\n",
    );
    const file = join(folder, "words.json");
    await writeFile(
      file,
      JSON.stringify({
        id: "words",
        name: "Words",
        version: "1.0.0",
        passingThreshold: 0.5,
        criteria: [
          {
            id: "long",
            title: "Long enough",
            description: "Has words",
            weight: 1,
            method: { kind: "function", name: "checks.mjs:long" },
          },
        ],
      }),
    );
    const catalog = await loadCatalog(file);
    await registry.add(catalog);
    const content = "Install solar panels on the school roof in two phases.";
    const withoutStore = await evaluateContent({ content, catalog });
    expect(withoutStore.criteria[0]).toMatchObject({ evaluated: true, score: 1 });
    const withStore = await evaluateContent({ content, catalog, rubricRegistry: registry });
    expect(withStore.catalog.registryVersion).toBe("words@1.0.0");
    expect(withStore.criteria[0]).toMatchObject({ evaluated: true, score: 1 });
    expect(withStore.passed).toBe(true);
  });

  it("names the registry version, not the file, when that version cannot be used", async () => {
    const broken = { ...FILE_CATALOG, id: "broken_words", source: undefined };
    await registry.add(broken);
    const refused = await activeCatalog(
      { ...broken, source: "/somewhere/broken_words.json" },
      registry,
    );
    const duplicated = { ...refused, criteria: [...refused.criteria, ...refused.criteria] };
    const error = await evaluateContent({
      content: "text",
      catalog: duplicated,
      model: judgeScoring(0.6),
    }).catch((e: unknown) => e);
    expect(isEvalgateError(error, "CATALOG_INVALID")).toBe(true);
    expect(String(error)).toContain("broken_words@1.0.0 in the rubric registry ($.criteria[1].id)");
  });
});
