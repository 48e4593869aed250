import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const root = join(import.meta.dirname, "..");

/**
 * The runtime names of `evalgate`, written by hand: a name added to src/index.ts fails this test
 * until it is added here too, so the root grows by decision. Everything else is reached through a
 * subpath (`evalgate/judge`, `evalgate/toon`, …).
 */
const ROOT_NAMES = [
  // criteria catalogs
  "loadCatalog",
  "parseCatalog",
  "validateCatalog",
  "CatalogSchema",
  "CriterionSchema",
  // evaluation without a graph, and the three evaluation classes
  "evaluateContent",
  "CriteriaEngine",
  "CriterionEvaluationSchema",
  "PromptEvaluator",
  "PromptEvaluationInputSchema",
  "PromptEvaluationSchema",
  "RubricExecutor",
  "RubricEvaluationSchema",
  // graphs
  "buildEvaluationGraph",
  "buildProposalGraph",
  "createProposalBuilder",
  "addEvaluationStage",
  "routeAfterEvaluation",
  "createEvaluationNode",
  "createReviewNode",
  "sectionStage",
  "stageNodeNames",
  "OverallProposalState",
  "EvaluationGateState",
  "withEvaluationGate",
  "ReviewDecisionSchema",
  // models, orchestration
  "createChatModel",
  "ReviewOrchestrator",
  "getTraces",
  // calibration from reviewer labels
  "calibrationReport",
  "CalibrationReportSchema",
  // judge panels: the agreement measure
  "krippendorffAlpha",
  // results
  "EvaluationResultSchema",
  "CriterionResultSchema",
  "VerdictSchema",
  "FundingStatusSchema",
  // errors
  "EvalgateError",
  "isEvalgateError",
];

/** The subpaths package.json must offer, one per folder of src/ that has a public index. */
const SUBPATHS = [
  "blueprints",
  "checks",
  "context",
  "criteria",
  "engine",
  "evaluators",
  "graph",
  "judge",
  "llm",
  "orchestrator",
  "rubrics",
  "scoring",
  "service",
  "store",
  "toon",
];

const ExportTargetSchema = z.object({ types: z.string(), import: z.string() });
const PackageSchema = z.object({
  exports: z.record(z.string(), z.union([ExportTargetSchema, z.string()])),
});

function exportsMap() {
  return PackageSchema.parse(JSON.parse(readFileSync(join(root, "package.json"), "utf8"))).exports;
}

/** dist/src/x/index.js → src/x/index.ts: the source tsc -p tsconfig.build.json compiles there. */
function sourceOf(distPath: string): string {
  const match = /^\.\/dist\/(src\/(?:[a-z]+\/)?index)\.(?:js|d\.ts)$/.exec(distPath);
  if (match === null) throw new Error(`${distPath} does not point into dist/src`);
  return `${match[1]}.ts`;
}

describe("the public surface", () => {
  it("the root exports exactly the names a user builds with", async () => {
    const surface = await import("../src/index.js");
    expect(Object.keys(surface).sort()).toEqual([...ROOT_NAMES].sort());
  });

  it("every root name is something to use, not undefined", async () => {
    const surface: Record<string, unknown> = await import("../src/index.js");
    for (const name of ROOT_NAMES) expect(surface[name], name).toBeDefined();
  });

  it("package.json offers the root and one subpath per folder, each with types and import", () => {
    const exported = exportsMap();
    const entries = Object.keys(exported).filter((key) => key !== "./package.json");
    expect(entries.sort()).toEqual([".", ...SUBPATHS.map((folder) => `./${folder}`)].sort());
    for (const folder of SUBPATHS) {
      expect(exported[`./${folder}`]).toEqual({
        types: `./dist/src/${folder}/index.d.ts`,
        import: `./dist/src/${folder}/index.js`,
      });
    }
  });

  it("every folder of src/ with a public index is a subpath, and no other", () => {
    const folders = readdirSync(join(root, "src"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .filter((folder) => existsSync(join(root, "src", folder, "index.ts")));
    expect(folders.sort()).toEqual([...SUBPATHS].sort());
  });

  it("evalgate/blueprints offers loading and running a blueprint", async () => {
    const target = ExportTargetSchema.parse(exportsMap()["./blueprints"]);
    const blueprints: Record<string, unknown> = await import(join(root, sourceOf(target.import)));
    for (const name of ["loadBlueprint", "runBlueprint", "BlueprintSchema", "isBlueprintError"]) {
      expect(typeof blueprints[name], name).not.toBe("undefined");
    }
  });

  it.each(SUBPATHS)(
    "evalgate/%s resolves to a source index that exports something",
    async (folder) => {
      const target = ExportTargetSchema.parse(exportsMap()[`./${folder}`]);
      const source = sourceOf(target.import);
      expect(sourceOf(target.types)).toBe(source);
      expect(existsSync(join(root, source)), source).toBe(true);
      const module: Record<string, unknown> = await import(join(root, source));
      expect(Object.keys(module).length).toBeGreaterThan(0);
    },
  );

  it("panels: the agreement function from the root and evalgate/scoring, the settings from evalgate/engine", async () => {
    const surface: Record<string, unknown> = await import("../src/index.js");
    const scoring: Record<string, unknown> = await import("../src/scoring/index.js");
    const engine: Record<string, unknown> = await import("../src/engine/index.js");
    expect(scoring.krippendorffAlpha).toBe(surface.krippendorffAlpha);
    for (const name of ["scaleAgreement", "PanelSummarySchema", "CriterionPanelSchema"]) {
      expect(scoring[name], name).toBeDefined();
    }
    expect(engine.PanelSettingsSchema).toBeDefined();
    // Two coders on three units, nominal: (0,0), (0,1), (1,1). Coincidences o00 = 2, o01 = o10 = 1,
    // o11 = 2; n0 = n1 = 3, n = 6. D_o = 2/6, D_e = 2·3·3 / (6·5) = 0.6; alpha = 1 − (1/3)/0.6 = 4/9.
    const alpha = surface.krippendorffAlpha as (units: number[][], metric: string) => number;
    const units = [
      [0, 0],
      [0, 1],
      [1, 1],
    ];
    // Rounded to three decimals, as every agreement figure is.
    expect(alpha(units, "nominal")).toBe(0.444);
  });

  it("a subpath keeps internals out: the judge's session and batch call are not public", async () => {
    const engine: Record<string, unknown> = await import("../src/engine/index.js");
    const judge: Record<string, unknown> = await import("../src/judge/index.js");
    for (const internal of ["JudgeSession", "judgeBatch", "judgeCriterion"]) {
      expect(engine[internal], internal).toBeUndefined();
    }
    for (const internal of ["JUDGE_PLACEHOLDERS", "methodParts", "fillTemplate"]) {
      expect(judge[internal], internal).toBeUndefined();
    }
  });
});
