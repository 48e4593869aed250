/**
 * The registry decides the next evaluation, end to end through the built command: `evaluate --db`
 * judges with the catalog file while the registry does not hold its id; `calibrate --apply`
 * writes a version with a raised threshold and the same content now fails; `rubrics activate`
 * rolls back and it passes again. Every result and trace names the version it judged with.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import { EvaluationResultSchema, TraceSchema } from "../../src/scoring/result.js";
import { openReviewStore } from "../../src/store/index.js";
import { solutionQualityCatalog } from "../catalogs/solutionQuality.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { judgeEnv, runEvalgate, SPAWN_TIMEOUT } from "./helpers.js";

const MODEL = "judge:latest";

/** One critical criterion at the catalog's threshold 0.50. */
const CATALOG = solutionQualityCatalog({ critical: true });

/** A reviewer's label decided at 10:00 + i hours on 2026-06-01: the judge's score and theirs. */
function label(i: number, judge: number, reviewer: number): CalibrationLabel {
  return {
    decisionId: `d${i}`,
    threadId: `t${i}`,
    stage: "solution",
    contentType: "solution",
    evaluationId: `ev${i}`,
    reviewer: "ana",
    decidedAt: `2026-06-01T${String(10 + i).padStart(2, "0")}:00:00.000Z`,
    action: "revise",
    judgePassed: true,
    criterionId: "feasibility",
    criterionTitle: "Feasibility",
    method: "score",
    threshold: 0.5,
    judgeScore: judge,
    judgeMet: true,
    judgeNative: judge,
    source: "marked",
    reviewerScore: reviewer,
    reviewerNative: reviewer,
  };
}

let dir = "";
let server: OllamaServer;

/** A store in `dir` holding the twelve labels (see beforeAll). */
async function labelledStore(name: string): Promise<void> {
  const store = await openReviewStore({ sqlitePath: join(dir, name) });
  await store.addCalibrationLabels(
    Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? label(i, 0.6, 0.2) : label(i, 0.8, 0.9))),
  );
  await store.close();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-registry-gate-"));
  await writeFile(join(dir, "catalog.json"), JSON.stringify(CATALOG));
  await writeFile(join(dir, "plan.md"), "Install solar panels on the school roof in two phases.\n");
  // Twelve labels alternating: the judge 0.6 / the reviewer 0.2 (fail), the judge 0.8 / the
  // reviewer 0.9 (pass). On the six earlier ones the nearest threshold that agrees 6 of 6 is 0.61
  // (docs/calibration.md's worked example); the six later ones agree with it as well.
  await labelledStore("gate.sqlite");
  // The judge scores the plan 0.6 every time.
  server = await startOllamaServer({
    models: [MODEL],
    responder: () => JSON.stringify({ reasoning: "Scored 0.6.", score: 0.6 }),
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

function evalgate(args: readonly string[]) {
  return runEvalgate(args, { cwd: dir, env: judgeEnv(server.url, MODEL), timeoutMs: 55_000 });
}

/** `evaluate plan.md` against catalog.json, as JSON, with its traces in `trace`. */
async function evaluate(trace: string, db: string[] = ["--db", "gate.sqlite"]) {
  const args = ["evaluate", "plan.md", "--catalog", "catalog.json", "--format", "json"];
  const run = await evalgate([...args, ...db, "--no-cache", "--trace", trace]);
  const traces = (await readFile(join(dir, trace), "utf8"))
    .trim()
    .split("\n")
    .map((line) => TraceSchema.parse(JSON.parse(line)));
  return { run, result: EvaluationResultSchema.parse(JSON.parse(run.stdout)), traces };
}

describe("the rubric registry decides the next evaluation", () => {
  it("apply, evaluate, see the new threshold decide; activate the old version, see the old decision", {
    timeout: 4 * SPAWN_TIMEOUT,
  }, async () => {
    // No version registered yet: the file decides. 0.6 ≥ 0.50, the critical criterion is met and
    // the overall 0.6 ≥ 0.50 → passed (exit 0).
    const before = await evaluate("before.jsonl");
    expect(before.run.stderr).not.toContain("evalgate:");
    expect(before.run.code).toBe(0);
    expect(before.result.passed).toBe(true);
    expect(before.result.catalog).toEqual({
      id: "solution_quality",
      version: "1.0.0",
      name: "Solution quality",
    });
    expect(before.traces.every((t) => t.registryVersion === undefined)).toBe(true);

    const apply = ["calibrate", "--apply", "--db", "gate.sqlite", "--catalog", "catalog.json"];
    const applied = await evalgate([...apply, "--yes"]);
    expect(applied.stderr).not.toContain("evalgate:");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("feasibility: 0.50 → 0.61");
    expect(applied.stdout).toContain("registered solution_quality version 1.0.1");

    // The version --apply wrote decides: 0.6 < 0.61, a critical criterion unmet → not passed,
    // verdict fail (exit 1), from the same catalog file.
    const after = await evaluate("after.jsonl");
    expect(after.run.code).toBe(1);
    expect(after.run.stderr).toContain(
      "judging with solution_quality@1.0.1, the active version in the rubric registry of gate.sqlite",
    );
    expect(after.result.passed).toBe(false);
    expect(after.result.verdict).toBe("fail");
    expect(after.result.criteria[0]).toMatchObject({ score: 0.6, threshold: 0.61, met: false });
    expect(after.result.catalog).toMatchObject({
      version: "1.0.1",
      registryVersion: "solution_quality@1.0.1",
    });
    expect(after.traces.length).toBeGreaterThan(0);
    for (const t of after.traces) expect(t.registryVersion).toBe("solution_quality@1.0.1");
    const junit = await evalgate([
      ...["evaluate", "plan.md", "--catalog", "catalog.json", "--db", "gate.sqlite"],
      ...["--no-cache", "--format", "junit"],
    ]);
    expect(junit.stdout).toContain('<property name="catalog" value="solution_quality@1.0.1"/>');
    expect(junit.stdout).toContain(
      '<property name="registryVersion" value="solution_quality@1.0.1"/>',
    );

    // The same evaluation without a store: the file, as before.
    const noStore = await evaluate("nostore.jsonl", []);
    expect(noStore.run.code).toBe(0);
    expect(noStore.result.catalog.registryVersion).toBeUndefined();
    const fileJunit = await evalgate([
      "evaluate",
      "plan.md",
      "--catalog",
      "catalog.json",
      "--format",
      "junit",
    ]);
    expect(fileJunit.stdout).toContain('<property name="catalog" value="solution_quality@1.0.0"/>');
    expect(fileJunit.stdout).not.toContain("registryVersion");

    const rolledBack = await evalgate([
      ...["rubrics", "activate", "solution_quality", "1.0.0", "--db", "gate.sqlite"],
    ]);
    expect(rolledBack).toMatchObject({ code: 0, stderr: "" });
    expect(rolledBack.stdout).toBe(
      "solution_quality@1.0.0 is active in gate.sqlite (was 1.0.1): gates judge with it.\n",
    );

    // Version 1.0.0 (the file as --apply registered it) decides again: passed, exit 0.
    const back = await evaluate("back.jsonl");
    expect(back.run.code).toBe(0);
    expect(back.result.passed).toBe(true);
    expect(back.result.criteria[0]).toMatchObject({ score: 0.6, threshold: 0.5, met: true });
    expect(back.result.catalog.registryVersion).toBe("solution_quality@1.0.0");
    for (const t of back.traces) expect(t.registryVersion).toBe("solution_quality@1.0.0");

    const unknown = await evalgate([
      ...["rubrics", "activate", "solution_quality", "7.0.0", "--db", "gate.sqlite"],
    ]);
    expect(unknown).toMatchObject({ code: 2, stdout: "" });
    expect(unknown.stderr).toBe(
      'evalgate: no version "7.0.0" of rubric "solution_quality" in gate.sqlite [RUBRIC_NOT_FOUND]\n',
    );
  });
});

describe("calibrate --apply with a catalog file the registry holds", () => {
  it("fits the active version the gates judge with, not the file, and writes nothing new when it fits", {
    timeout: 3 * SPAWN_TIMEOUT,
  }, async () => {
    await labelledStore("again.sqlite");
    const apply = ["calibrate", "--apply", "--db", "again.sqlite", "--catalog", "catalog.json"];
    const first = await evalgate([...apply, "--yes"]);
    expect(first.stdout).toContain("registered solution_quality version 1.0.1");

    // The same command a month later: the gates judge with 1.0.1 (threshold 0.61), on which the
    // twelve labels agree 12 of 12 — the threshold stays, nothing is registered. Fitted from the
    // file's 0.50 instead it would say "0.50 → 0.61" and store the file and the fit again.
    const again = await evalgate([...apply, "--yes"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(
      "--apply uses solution_quality@1.0.1, the active version in the rubric registry of again.sqlite, which gates judge with instead of catalog.json",
    );
    expect(again.stdout).toContain("Thresholds of solution_quality 1.0.1 (solution)");
    expect(again.stdout).toContain("feasibility: stays 0.61");
    expect(again.stderr).toContain("nothing to change: no version written");
    const shown = await evalgate(["rubrics", "show", "solution_quality", "--db", "again.sqlite"]);
    expect(shown.stdout).toMatch(
      /versions:\n {2}1\.0\.0 registered \S+\n {2}1\.0\.1 \(active\) registered \S+\n$/,
    );
  });
});
