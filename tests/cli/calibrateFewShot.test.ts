/**
 * `evalgate calibrate --compare` and `--apply` against a real SQLite review store: the replay runs
 * both arms through the Ollama-protocol stand-in (counts, scores, the time split: no example newer
 * than the label it is shown for), and --apply writes the threshold worked out by hand as a new
 * registry version with its evidence, only after a yes (refused without a terminal or --yes).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ComparedCalibrationSchema } from "../../src/calibration/reportModel.js";
import { runCalibrate } from "../../src/cli/actions/calibrate.js";
import { type CliContext, createCliContext } from "../../src/cli/context.js";
import { fenceData } from "../../src/judge/fence.js";
import { buildTrace } from "../../src/judge/trace.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import { openReviewStore, SqliteTraceStore } from "../../src/store/index.js";
import { solutionQualityCatalog } from "../catalogs/solutionQuality.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { judgeEnv, runEvalgate, SPAWN_TIMEOUT } from "./helpers.js";

const MODEL = "judge:latest";

function label(
  n: number,
  criterionId: string,
  decidedAt: string,
  over: Partial<CalibrationLabel> = {},
) {
  return {
    decisionId: `d${n}`,
    threadId: `t${n}`,
    stage: "solution",
    contentType: "solution",
    evaluationId: `ev${n}`,
    reviewer: "ana",
    decidedAt,
    action: "revise",
    judgePassed: true,
    criterionId,
    criterionTitle: criterionId,
    method: "score",
    threshold: 0.5,
    judgeScore: 0.9,
    judgeMet: true,
    judgeNative: 0.9,
    source: "marked",
    reviewerScore: 0.2,
    reviewerNative: 0.2,
    ...over,
  } satisfies CalibrationLabel;
}

const CATALOG = solutionQualityCatalog();

function bufferContext(dir: string, env: Record<string, string>) {
  const out = { stdout: "", stderr: "" };
  const context: CliContext = createCliContext({
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    env,
    cwd: dir,
  });
  return { context, out };
}

let dir = "";
let server: OllamaServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-fewshot-"));
  await writeFile(join(dir, "catalog.json"), JSON.stringify(CATALOG));
  server = await startOllamaServer({
    models: [MODEL],
    // With examples in the prompt the stand-in answers 0.8, without them 0.3.
    responder: (request) => {
      const user = request.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
      const score = user.includes("<<<EXAMPLE id=") ? 0.8 : 0.3;
      return JSON.stringify({ reasoning: `Scored ${score}.`, score, hits: [], misses: [] });
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("calibrate --compare", () => {
  it("replays both arms, counts what it skipped, and never shows a newer correction", async () => {
    const db = join(dir, "compare.sqlite");
    const store = await openReviewStore({ sqlitePath: db });
    const hours = ["09", "10", "11", "12", "13"];
    await store.addCalibrationLabels([
      ...hours.map((h, i) => label(i + 1, "feasibility", `2026-05-0${i + 1}T${h}:00:00.000Z`)),
      label(6, "not_in_catalog", "2026-05-03T11:00:00.000Z"),
    ]);
    await store.close();
    const traces = new SqliteTraceStore(new Database(db));
    for (const n of [1, 2, 3, 4]) {
      const content = `Plan ${n}: solar panels on roof number ${n}.`;
      await traces.saveTraces({ evaluationId: `ev${n}` }, [
        buildTrace({
          purpose: "criterion",
          criterionIds: ["feasibility"],
          model: `ollama:${MODEL}`,
          parameters: {},
          systemPrompt: "judge",
          userPrompt: `Content under evaluation:\n${fenceData("CONTENT", content)}`,
          rawResponse: "{}",
          latencyMs: 1,
        }),
      ]);
    }
    const { context, out } = bufferContext(dir, judgeEnv(server.url, MODEL));
    const before = server.chatRequests().length;
    await runCalibrate(
      {
        db: "compare.sqlite",
        format: "json",
        compare: true,
        catalog: "catalog.json",
        model: `ollama:${MODEL}`,
      },
      context,
    );
    const compared = ComparedCalibrationSchema.parse(JSON.parse(out.stdout));
    const { comparison } = compared;
    expect(compared.model).toBe(`ollama:${MODEL}`);
    expect(compared.catalog).toEqual({ id: "solution_quality", version: "1.0.0" });
    // The report beside it is of every label of the period, the one not in the catalog too.
    expect(compared.calibration.overall.counts.labels).toBe(6);
    expect(comparison.labels).toBe(6);
    expect(comparison.replayed).toBe(4);
    expect(comparison.skipped).toEqual({ noContent: 1, notInCatalog: 1 });
    // Two arms, four evaluations, one criterion each, no guard call.
    expect(server.chatRequests().length - before).toBe(8);
    expect(comparison.replays.map((r) => r.examples.length)).toEqual([0, 1, 2, 3]);
    for (const replay of comparison.replays) {
      for (const example of replay.examples) {
        expect(Date.parse(example.decidedAt)).toBeLessThan(Date.parse(replay.decidedAt));
        expect(example.labelId).not.toBe(replay.labelId);
      }
    }
    expect(comparison.replays.map((r) => [r.scoreWithout, r.scoreWith])).toEqual([
      [0.3, 0.3],
      [0.3, 0.8],
      [0.3, 0.8],
      [0.3, 0.8],
    ]);
    // Reviewers said 0.2 (fail at 0.5) every time: 0.3 agrees 4 of 4, 0.8 agrees 1 of 4.
    expect(comparison.without.agreement.value).toBe(1);
    expect(comparison.with.agreement.value).toBe(0.25);
    expect(out.stderr).toContain("4 of 6 labels replayed without and with examples");
    // Per criterion: feasibility is every replayed label; without examples both sides fail all
    // four (κ 0/0: not enough labels), with them the judge passes three the reviewers failed:
    // po = 1/4, pJ = 3/4, pR = 0, pe = 1/4, κ = 0.
    expect(comparison.criteria.map((c) => c.criterionId)).toEqual(["feasibility"]);
    const feasibility = comparison.criteria[0];
    expect(feasibility?.without.agreement.value).toBe(1);
    expect(feasibility?.with.agreement.value).toBe(0.25);
    expect(feasibility?.without.kappa).toEqual({ value: null, missing: "no-variance" });
    expect(feasibility?.with.kappa.value).toBeCloseTo(0, 12);
    // Recorded for the service's page: the figures, not the per-label replays.
    const reopened = await openReviewStore({ sqlitePath: db });
    const latest = await reopened.latestCalibrationMeasurement();
    await reopened.close();
    expect(latest).toMatchObject({
      measuredAt: compared.measuredAt,
      since: null,
      until: null,
      model: `ollama:${MODEL}`,
      comparison: { labels: 6, replayed: 4, skipped: { noContent: 1, notInCatalog: 1 } },
    });
    expect(latest?.comparison).not.toHaveProperty("replays");
  }, 60_000);

  it("puts the report and the comparison in one HTML or Markdown document", async () => {
    const { context, out } = bufferContext(dir, judgeEnv(server.url, MODEL));
    const flags = { db: "compare.sqlite", compare: true, catalog: "catalog.json" };
    await runCalibrate({ ...flags, format: "html", model: `ollama:${MODEL}` }, context);
    const html = out.stdout;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html.match(/<html/g)).toHaveLength(1);
    expect(html).toContain("<h1>Calibration report</h1>");
    expect(html).toContain("Few-shot examples: without and with");
    // The overall row: 100% → 25%, a fall of 75 percentage points; κ has no figure without.
    expect(html).toMatch(
      /<td[^>]*>all criteria<\/td><td[^>]*>4<\/td><td[^>]*>100%<\/td><td[^>]*>25%<\/td><td[^>]*>−75 pp<\/td><td[^>]*>not enough labels<\/td><td[^>]*>0.00<\/td><td[^>]*>—<\/td>/,
    );
    const md = bufferContext(dir, judgeEnv(server.url, MODEL));
    await runCalibrate({ ...flags, format: "md", model: `ollama:${MODEL}` }, md.context);
    expect(md.out.stdout).toContain("# Calibration report");
    expect(md.out.stdout).toContain(
      "| all criteria | 4 | 100% | 25% | −75 pp | not enough labels | 0.00 | — |",
    );
  }, 60_000);
});

/** A marked label decided at 10:00 + i hours: the judge's score and the reviewer's. */
function scored(i: number, judge: number, reviewer: number): CalibrationLabel {
  const at = `2026-06-01T${String(10 + i).padStart(2, "0")}:00:00.000Z`;
  return label(100 + i, "feasibility", at, {
    judgeScore: judge,
    judgeNative: judge,
    reviewerScore: reviewer,
    reviewerNative: reviewer,
  });
}

/**
 * 12 marked labels, alternating: six the judge scored 0.6 and the reviewer failed (0.2), six 0.8
 * both passed (0.9) — three of each before 16:00, three of each from then on.
 */
function applyLabels(): CalibrationLabel[] {
  return Array.from({ length: 12 }, (_, i) =>
    i % 2 === 0 ? scored(i, 0.6, 0.2) : scored(i, 0.8, 0.9),
  );
}

/**
 * As applyLabels before 16:00; from then on (judge, reviewer): (0.6, 0.9), (0.8, 0.9), (0.6, 0.9),
 * (0.8, 0.9), (0.6, 0.9), (0.6, 0.2) — the reviewers pass three of the four 0.6s.
 */
function shiftedLabels(): CalibrationLabel[] {
  const later = [0.6, 0.8, 0.6, 0.8, 0.6, 0.6].map((judge, k) =>
    scored(6 + k, judge, k === 5 ? 0.2 : 0.9),
  );
  return [...applyLabels().slice(0, 6), ...later];
}

async function applyStore(name: string, labels: CalibrationLabel[]) {
  const store = await openReviewStore({ sqlitePath: join(dir, name) });
  await store.addCalibrationLabels(labels);
  await store.close();
}

describe("calibrate --apply", () => {
  const options = (db: string) => ({
    db,
    format: "md" as const,
    apply: true,
    catalog: "catalog.json",
  });

  it("is refused without a terminal and without --yes, and writes nothing", async () => {
    await applyStore("refused.sqlite", applyLabels());
    const { context } = bufferContext(dir, {});
    await expect(runCalibrate(options("refused.sqlite"), context)).rejects.toThrow(/add --yes/);
    const { apply: _apply, ...report } = options("refused.sqlite");
    await expect(runCalibrate({ ...report, force: true }, context)).rejects.toThrow(
      "--force goes with --apply",
    );
    const registry = await RubricRegistry.open({ sqlitePath: join(dir, "refused.sqlite") });
    expect(await registry.get("solution_quality")).toBeUndefined();
    await registry.close();
  });

  it("writes the threshold worked out by hand after a yes, with the labels behind it", async () => {
    await applyStore("apply.sqlite", applyLabels());
    const { context, out } = bufferContext(dir, {});
    const stdin = new PassThrough();
    stdin.end("y\n");
    await runCalibrate(options("apply.sqlite"), context, { stream: stdin, terminal: true });
    // Fitted on the six labels before 16:00: at 0.50 the judge passes all six, the reviewer three
    // (3/6 = 50%; pJ = 1, pR = 1/2, pe = 1/2, κ = 0). From 0.61 to 0.80 it fails the 0.6s: 6/6
    // (pJ = pR = pe = 1/2, κ = (1 − 1/2)/(1/2) = 1); 0.61 is the nearest to 0.50. The six held
    // out from 16:00 are the same mix: 50% → 100%, κ 0 → 1.
    expect(out.stdout).toContain(
      "feasibility: 0.50 → 0.61; held out (6 later labels, decided from 2026-06-01T16:00:00.000Z): agreement 50% → 100%, κ 0.00 → 1.00; in-sample (the 6 earlier labels it was fitted on): agreement 50% → 100%, κ 0.00 → 1.00",
    );
    expect(out.stdout).toContain("registered solution_quality version 1.0.1");
    const registry = await RubricRegistry.open({ sqlitePath: join(dir, "apply.sqlite") });
    const written = await registry.require("solution_quality");
    await registry.close();
    expect(written.criteria[0]?.passingThreshold).toBe(0.61);
    expect(written.calibration?.changes[0]).toMatchObject({
      criterionId: "feasibility",
      from: 0.5,
      to: 0.61,
      compared: 6,
      kappaBefore: 0,
      kappaAfter: 1,
      heldOut: { since: "2026-06-01T16:00:00.000Z", compared: 6, kappaBefore: 0, kappaAfter: 1 },
    });
    expect(written.calibration?.changes[0]?.forced).toBeUndefined();
    expect(written.calibration?.changes[0]?.labelIds).toHaveLength(6);
    expect(written.calibration?.changes[0]?.labelIds[0]).toBe("d100#feasibility");
    expect(written.calibration?.changes[0]?.heldOut?.labelIds[0]).toBe("d106#feasibility");
  });

  it(
    "refuses a threshold that fits the earlier labels and agrees worse with the later ones",
    async () => {
      await applyStore("shifted.sqlite", shiftedLabels());
      const flags = ["calibrate", "--apply", "--db", "shifted.sqlite", "--catalog", "catalog.json"];
      const refused = await runEvalgate([...flags, "--yes"], { cwd: dir });
      // In-sample as above (50% → 100%). Held out from 16:00: 0.6 pass ×3, 0.8 pass ×2, 0.6 fail.
      // At 0.50 the judge passes all six, the reviewer five: 5/6 = 83.3%, κ 0 (pJ = 1). At 0.61 it
      // passes the two 0.8s only: 2 + 1 agree = 3/6 = 50%; pJ = 2/6, pR = 5/6,
      // pe = 10/36 + 4/36 = 14/36, κ = (18/36 − 14/36)/(22/36) = 2/11 = 0.18.
      expect(refused.stdout).toContain(
        "held out (6 later labels, decided from 2026-06-01T16:00:00.000Z): agreement 83.3% → 50%, κ 0.00 → 0.18; in-sample (the 6 earlier labels it was fitted on): agreement 50% → 100%",
      );
      // The line docs/calibration.md shows.
      expect(refused.stderr).toContain(
        "evalgate: refused — the held-out agreement drops (feasibility 0.50 → 0.61: 83.3% → 50%): the new threshold fits the earlier labels but agrees worse with the later ones, which it never saw. No version written; --force writes it anyway.\n",
      );
      expect(refused.code).toBe(1);
      const registry = await RubricRegistry.open({ sqlitePath: join(dir, "shifted.sqlite") });
      expect(await registry.get("solution_quality")).toBeUndefined();
      await registry.close();
      // --force writes it, marked as forced, with the held-out figures that argued against it.
      const forced = await runEvalgate([...flags, "--yes", "--force"], { cwd: dir });
      expect(forced.code).toBe(0);
      expect(forced.stdout).toContain("registered solution_quality version 1.0.1");
      const again = await RubricRegistry.open({ sqlitePath: join(dir, "shifted.sqlite") });
      const written = await again.require("solution_quality");
      await again.close();
      expect(written.criteria[0]?.passingThreshold).toBe(0.61);
      expect(written.calibration?.changes[0]).toMatchObject({
        forced: true,
        heldOut: { agreementAfter: 0.5, compared: 6 },
      });
    },
    SPAWN_TIMEOUT * 2,
  );

  it("reads --content-type in any spelling, and refuses a typo rather than fit on no labels", async () => {
    await applyStore("spelling.sqlite", applyLabels());
    const spelled = bufferContext(dir, {});
    const given = { ...options("spelling.sqlite"), contentType: "Solution", yes: true };
    await runCalibrate(given, spelled.context);
    // The twelve labels of "solution", as in the test above: 0.50 → 0.61.
    expect(spelled.out.stdout).toContain("Thresholds of solution_quality 1.0.0 (solution)");
    expect(spelled.out.stdout).toContain("feasibility: 0.50 → 0.61");
    const typo = bufferContext(dir, {});
    await expect(runCalibrate({ ...given, contentType: "solutoin" }, typo.context)).rejects.toThrow(
      /unknown content type "solutoin"/,
    );
  });

  it("changes nothing on a no, or for a criterion with fewer than 10 labels, saying why", async () => {
    await applyStore("no.sqlite", applyLabels());
    const first = bufferContext(dir, {});
    const stdin = new PassThrough();
    stdin.end("n\n");
    await runCalibrate(options("no.sqlite"), first.context, { stream: stdin, terminal: true });
    expect(first.out.stderr).toContain("not confirmed: no version written");
    await applyStore("few.sqlite", applyLabels().slice(3, 12));
    const second = bufferContext(dir, {});
    await runCalibrate({ ...options("few.sqlite"), yes: true }, second.context);
    expect(second.out.stdout).toContain(
      "feasibility: stays 0.50 (9 comparable label(s), fewer than the 10 needed)",
    );
    expect(second.out.stderr).toContain("nothing to change: no version written");
    for (const db of ["no.sqlite", "few.sqlite"]) {
      const registry = await RubricRegistry.open({ sqlitePath: join(dir, db) });
      expect(await registry.get("solution_quality")).toBeUndefined();
      await registry.close();
    }
  });
});

describe("evaluate --few-shot", () => {
  it("shows the judge the corrections kept in --db, and is refused without one", async () => {
    const db = join(dir, "evaluate.sqlite");
    const store = await openReviewStore({ sqlitePath: db });
    await store.addCalibrationLabels([label(200, "feasibility", "2026-05-01T09:00:00.000Z")]);
    await store.close();
    const traces = new SqliteTraceStore(new Database(db));
    await traces.saveTraces({ evaluationId: "ev200" }, [
      buildTrace({
        purpose: "criterion",
        criterionIds: ["feasibility"],
        model: `ollama:${MODEL}`,
        parameters: {},
        systemPrompt: "judge",
        userPrompt: `Content:\n${fenceData("CONTENT", "A wind farm without a grid connection.")}`,
        rawResponse: "{}",
        latencyMs: 1,
      }),
    ]);
    await writeFile(join(dir, "draft.md"), "A wind farm with a grid connection.");
    const { runEvaluate } = await import("../../src/cli/actions/evaluate.js");
    const env = judgeEnv(server.url, MODEL);
    const { context, out } = bufferContext(dir, env);
    const before = server.chatRequests().length;
    const flags = { catalog: "catalog.json", mode: "auto" as const, format: "json" as const };
    await runEvaluate(
      "draft.md",
      // No cache: the judge is asked, so the prompt it is shown can be read.
      { ...flags, db: "evaluate.sqlite", fewShot: true, cache: false },
      context,
    );
    const result = JSON.parse(out.stdout);
    expect(result.fewShotExamples).toEqual({ feasibility: ["d200#feasibility"] });
    const asked = server.chatRequests().slice(before);
    expect(
      asked.some((r) =>
        JSON.stringify(r.messages).includes("A wind farm without a grid connection."),
      ),
    ).toBe(true);
    const bare = bufferContext(dir, env);
    await expect(
      runEvaluate("draft.md", { ...flags, fewShot: true }, bare.context),
    ).rejects.toThrow(/--few-shot reads the reviewers' corrections from a --db/);
  }, 60_000);
});
