/**
 * The public surface: package.json offers one entry per thing a user does, each entry's names are
 * counted against a ceiling (so the surface cannot grow back unnoticed), every name carries the
 * TSDoc a user's editor shows, and the internals are in no entry.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageEntries, publicNames, sourceOf } from "./publicNames.js";

const root = join(import.meta.dirname, "..");

/**
 * The most names (values and types) each entry may export: the counts when the surface was cut
 * by task. A name added past its ceiling fails here until the ceiling is raised on purpose.
 */
const CEILINGS: Record<string, number> = {
  evalgate: 76,
  "evalgate/graph": 45,
  "evalgate/review": 27,
  "evalgate/store": 24,
  "evalgate/rubrics": 14,
  "evalgate/blueprints": 17,
  "evalgate/evaluators": 28,
};

/** The runtime names of `evalgate`, by hand: the root changes by decision only. */
const ROOT_VALUES = [
  // criteria catalogs
  "loadCatalog",
  "parseCatalog",
  "validateCatalog",
  "CatalogSchema",
  "CriterionSchema",
  // evaluating content, its cache, panels and few-shot examples
  "evaluateContent",
  "MemoryJudgeCacheStore",
  "PanelSettingsSchema",
  "krippendorffAlpha",
  "scaleAgreement",
  "CriterionPanelSchema",
  "PanelSummarySchema",
  "inMemoryExampleSource",
  // models
  "createChatModel",
  // results
  "EvaluationResultSchema",
  "CriterionResultSchema",
  "VerdictSchema",
  "FundingStatusSchema",
  // calibration from reviewers, traces
  "calibrationReport",
  "CalibrationReportSchema",
  "ComparedCalibrationSchema",
  "getTraces",
  // the two next steps: the gate as a graph, the orchestrator
  "buildEvaluationGraph",
  "withEvaluationGate",
  "EvaluationGateState",
  "ReviewDecisionSchema",
  "ReviewOrchestrator",
  // errors
  "EvalgateError",
  "isEvalgateError",
];

/** Internals: parts of the pipeline, the judge and the thread engine no user calls. */
const INTERNALS = [
  "runEvaluation",
  "JudgeSession",
  "judgeBatch",
  "judgeCriterion",
  "renderJudgePrompt",
  "parseJudgeResponse",
  "fillTemplate",
  "decodeToon",
  "weightedAverage",
  "settleResult",
  "createGenerator",
  "threadErrors",
  "hashToken",
  "SqliteReviewStore",
  "MAX_BODY_BYTES",
];

const names = publicNames(root);

describe("the public surface", () => {
  it("package.json offers the root and one entry per task, each an index with its types", () => {
    expect([...packageEntries(root).keys()].sort()).toEqual(Object.keys(CEILINGS).sort());
    for (const [specifier, target] of packageEntries(root)) {
      const source = sourceOf(target.import);
      expect(sourceOf(target.types), specifier).toBe(source);
      expect(existsSync(join(root, source)), source).toBe(true);
    }
  });

  it.each(Object.entries(CEILINGS))("%s exports at most %i names", (specifier, ceiling) => {
    const offered = names.get(specifier) ?? [];
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.length).toBeLessThanOrEqual(ceiling);
  });

  it("the ceilings are counted, not guessed: each entry is within ten names of its ceiling", () => {
    for (const [specifier, ceiling] of Object.entries(CEILINGS)) {
      expect(names.get(specifier)?.length ?? 0, specifier).toBeGreaterThanOrEqual(ceiling - 10);
    }
  });

  it.each([...names.keys()])("every name of %s has its TSDoc", (specifier) => {
    const undocumented = (names.get(specifier) ?? []).filter((n) => n.doc === "");
    expect(undocumented.map((n) => n.name)).toEqual([]);
  });

  it("the root's runtime names are exactly the listed ones", async () => {
    const surface: Record<string, unknown> = await import("../src/index.js");
    expect(Object.keys(surface).sort()).toEqual([...ROOT_VALUES].sort());
    for (const name of ROOT_VALUES) expect(surface[name], name).toBeDefined();
    const typed = (names.get("evalgate") ?? []).filter((n) => n.value).map((n) => n.name);
    expect(typed.sort()).toEqual([...ROOT_VALUES].sort());
  });

  it.each([...packageEntries(root)])(
    "%s loads, and its runtime names are the values the compiler sees",
    async (specifier, target) => {
      const module: Record<string, unknown> = await import(join(root, sourceOf(target.import)));
      const values = (names.get(specifier) ?? []).filter((n) => n.value).map((n) => n.name);
      expect(Object.keys(module).sort()).toEqual(values.sort());
    },
  );

  it("keeps the internals out of every entry", () => {
    for (const [specifier, offered] of names) {
      const leaked = offered.filter((n) => INTERNALS.includes(n.name)).map((n) => n.name);
      expect(leaked, specifier).toEqual([]);
    }
  });

  it("panels: the agreement from the root is Krippendorff's alpha, computed by hand", async () => {
    const surface = await import("../src/index.js");
    // Two coders on three units, nominal: (0,0), (0,1), (1,1). Coincidences o00 = 2, o01 = o10 = 1,
    // o11 = 2; n0 = n1 = 3, n = 6. D_o = 2/6, D_e = 2·3·3 / (6·5) = 0.6; alpha = 1 − (1/3)/0.6 = 4/9.
    const agreeing = [
      [0, 0],
      [0, 1],
      [1, 1],
    ];
    expect(surface.krippendorffAlpha(agreeing, "nominal")).toBeCloseTo(0.444, 3);
    // One more disagreement, (1,0) for (1,1): o00 = 2, o01 = o10 = 2, o11 = 0 → n0 = 4, n1 = 2;
    // D_o = 4/6, D_e = 2·4·2 / 30 = 16/30; alpha = 1 − (4/6)/(16/30) = −0.25: the measure drops.
    const worse = [
      [0, 0],
      [0, 1],
      [1, 0],
    ];
    expect(surface.krippendorffAlpha(worse, "nominal")).toBe(-0.25);
  });
});
