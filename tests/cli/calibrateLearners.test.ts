/**
 * `evalgate calibrate --compare` (the built command, against the Ollama-protocol stand-in) on
 * twelve budget evaluations — six corrected from 0.65 to 0.3, six approved as they stood
 * (tests/orchestrator/budgetLearners.ts): a judge that learns well shows its gain, and a judge
 * that copies every example shows its drop. The figures are worked out by hand below.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ComparedCalibrationSchema } from "../../src/calibration/reportModel.js";
import { fenceData } from "../../src/judge/fence.js";
import { buildTrace } from "../../src/judge/trace.js";
import { openReviewStore, SqliteTraceStore } from "../../src/store/index.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  goodLearner,
  harmfulLearner,
  LEARNER_CATALOG,
  LEARNER_CRITERION,
  learnerCases,
  learnerLabel,
} from "../orchestrator/budgetLearners.js";
import { judgeEnv, runEvalgate, SPAWN_TIMEOUT, tempFolderForFile } from "./helpers.js";

const MODEL = "judge:latest";
const folder = tempFolderForFile();
let server: OllamaServer;
let learner: (prompt: string) => string = goodLearner;

beforeAll(async () => {
  server = await startOllamaServer({
    models: [MODEL],
    responder: (request) =>
      learner(request.messages.filter((m) => m.role === "user").at(-1)?.content ?? ""),
  });
  await writeFile(join(folder.dir, "catalog.json"), JSON.stringify(LEARNER_CATALOG));
  const db = join(folder.dir, "reviews.sqlite");
  const store = await openReviewStore({ sqlitePath: db });
  const cases = learnerCases();
  await store.addCalibrationLabels(cases.map(learnerLabel));
  await store.close();
  // The content each evaluation judged, kept in its traces as the review desk keeps it.
  const sqlite = new Database(db);
  const traces = new SqliteTraceStore(sqlite);
  for (const c of cases) {
    await traces.saveTraces({ evaluationId: `ev-b${c.n}` }, [
      buildTrace({
        purpose: "criterion",
        criterionIds: [LEARNER_CRITERION],
        model: `ollama:${MODEL}`,
        parameters: {},
        systemPrompt: "judge",
        userPrompt: `Content under evaluation:\n${fenceData("CONTENT", c.content)}`,
        rawResponse: "{}",
        latencyMs: 1,
      }),
    ]);
  }
  sqlite.close();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

async function compare(format: "json" | "md") {
  const run = await runEvalgate(
    [
      "calibrate",
      "--compare",
      "--db",
      "reviews.sqlite",
      "--catalog",
      "catalog.json",
      "--model",
      `ollama:${MODEL}`,
      "--format",
      format,
    ],
    { cwd: folder.dir, env: judgeEnv(server.url, MODEL) },
  );
  expect(run.stderr).toContain("12 of 12 labels replayed without and with examples");
  expect(run.code).toBe(0);
  return run.stdout;
}

describe("evalgate calibrate --compare with a good and a harmful learner", () => {
  it(
    "shows the good learner's gain: 50% → 91.7%, κ 0.00 → 0.83",
    async () => {
      learner = goodLearner;
      const { comparison } = ComparedCalibrationSchema.parse(JSON.parse(await compare("json")));
      // Without examples the judge passes all twelve; the reviewers pass the six approved only:
      // po = 6/12 = 0.5, pJ = 1, pR = 0.5, pe = 1·0.5 + 0·0.5 = 0.5, κ = (0.5 − 0.5)/0.5 = 0.
      expect(comparison.without.agreement.value).toBe(0.5);
      expect(comparison.without.kappa.value).toBeCloseTo(0, 12);
      // With examples only b1 (no correction before it) is passed against the reviewer: 11/12.
      // pJ = 7/12, pR = 6/12, pe = (7·6 + 5·6)/144 = 0.5, κ = (11/12 − 1/2)/(1/2) = 5/6 = 0.833.
      expect(comparison.with.agreement.value).toBeCloseTo(11 / 12, 12);
      expect(comparison.with.kappa.value).toBeCloseTo(5 / 6, 12);
      // 91.7% − 50% = +41.7 pp; κ 0.83 − 0.00 = +0.83.
      expect(await compare("md")).toContain(
        "| all criteria | 12 | 50% | 91.7% | +41.7 pp | 0.00 | 0.83 | +0.83 |",
      );
    },
    SPAWN_TIMEOUT * 2,
  );

  it(
    "shows the harmful learner's drop: 50% → 41.7%, κ 0.00 → −0.17",
    async () => {
      learner = harmfulLearner;
      const { comparison } = ComparedCalibrationSchema.parse(JSON.parse(await compare("json")));
      expect(comparison.without.agreement.value).toBe(0.5);
      // With examples b2…b12 all get 0.3: the five corrected agree, the six approved do not, and
      // b1 (0.65, failed by the reviewer) does not: 5/12. pJ = 1/12, pR = 6/12,
      // pe = (1·6 + 11·6)/144 = 0.5, κ = (5/12 − 1/2)/(1/2) = −1/6 = −0.167.
      expect(comparison.with.agreement.value).toBeCloseTo(5 / 12, 12);
      expect(comparison.with.kappa.value).toBeCloseTo(-1 / 6, 12);
      expect(comparison.with.disagreements).toMatchObject({
        judgeTooLenient: 1,
        judgeTooStrict: 6,
      });
      // 41.7% − 50% = −8.3 pp; κ −0.17 − 0.00 = −0.17.
      expect(await compare("md")).toContain(
        "| all criteria | 12 | 50% | 41.7% | −8.3 pp | 0.00 | -0.17 | −0.17 |",
      );
    },
    SPAWN_TIMEOUT * 2,
  );
});
