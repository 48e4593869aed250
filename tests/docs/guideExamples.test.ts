/**
 * The examples quoted by the guides (calibration, model servers, panels and evidence, blueprints)
 * run as written: the scripted chat model where the example takes a model, the Ollama-protocol
 * (and OpenAI-protocol) stand-ins where it builds its own from a spec. Every expectation is worked
 * out by hand from the answers the doubles give.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { stoicismCoverage } from "../../docs/examples/blueprint.js";
import { budgetDisagreements } from "../../docs/examples/calibration.js";
import { judgeOnPool } from "../../docs/examples/modelPool.js";
import { judgedByPanel } from "../../docs/examples/panel.js";
import { alpha, oneCriterion, readPanel } from "../../docs/examples/panelAgreement.js";
import { firstTwoPages } from "../../docs/examples/pendingPages.js";
import { parseCatalog } from "../../src/criteria/index.js";
import { buildEvaluationGraph, ReviewOrchestrator } from "../../src/index.js";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import { openReviewStore } from "../../src/store/index.js";
import { ScriptedChatModel, startOllamaServer } from "../doubles/index.js";
import { startOpenAiServer } from "../doubles/openaiServer.js";
import { judgeResponder } from "../graph/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "evalgate-guide-examples-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());
vi.spyOn(console, "log").mockImplementation(() => {});

/** One 0–1 scored criterion: a single unit for the panel, its threshold 0.7. */
const ONE_CRITERION = parseCatalog(
  JSON.stringify({
    id: "clarity-only",
    name: "Clarity",
    version: "1.0.0",
    criteria: [
      { id: "clarity", name: "Clarity", description: "Is the aim stated plainly?", weight: 1 },
    ],
  }),
  { format: "json", source: "clarity-only" },
);

describe("panels and evidence", () => {
  it("three judges at 0.8, 0.9 and 0.2: the median 0.8, an agreement of -0.72, held for review", async () => {
    const judges = [0.8, 0.9, 0.2].map(
      (score, i) =>
        new ScriptedChatModel({ model: `judge-${i}`, responder: judgeResponder(score) }),
    );
    const result = await judgedByPanel("We plant 300 street trees.", ONE_CRITERION, judges);
    expect(judges.map((judge) => judge.calls.length)).toEqual([1, 1, 1]);
    expect(result.criteria[0]?.score).toBeCloseTo(0.8, 10);
    // D_o = mean of (0.1², 0.6², 0.7²) = 0.86 / 3; D_e on 0–1 = 1/6; 1 − 6 · 0.86 / 3 = −0.72.
    expect(result.criteria[0]?.panel?.agreement).toBeCloseTo(-0.72, 10);
    expect(result.panel?.agreement).toBeNull(); // one criterion: alpha is undefined
    expect(result.passed).toBe(false);
    expect(result.verdict).not.toBe("pass");

    const read = readPanel(result, { minAgreement: 0.67 });
    expect(read.settings).toEqual({ aggregate: "median", minAgreement: 0.67 });
    expect(read.summary.judges).toHaveLength(3);
    expect(read.criteria[0]?.answers.map((answer) => answer.score)).toEqual([0.8, 0.9, 0.2]);
  });

  it("Krippendorff's alpha of the documented units is 25/29; one criterion's 5/6", () => {
    // n = 9 values, D_o = (2 + 2 + 0) / 9, D_e = 2 · 9 · (116/9) / (9 · 8) = 232/72.
    expect(alpha).toBeCloseTo(25 / 29, 3);
    // D_o = (0 + 1 + 1) / 3 pairs, D_e = 2 · Var{1..5} = 4: 1 − (2/3) / 4.
    expect(oneCriterion).toBeCloseTo(5 / 6, 3);
  });
});

function label(fields: Partial<CalibrationLabel> & Pick<CalibrationLabel, "criterionId">) {
  return {
    decisionId: "decision-1",
    threadId: "thread-1",
    stage: "budget",
    contentType: "budget",
    evaluationId: "evaluation-1",
    reviewer: "ines",
    decidedAt: "2026-10-05T09:00:00.000Z",
    action: "approve",
    judgePassed: true,
    criterionTitle: fields.criterionId,
    method: "score",
    threshold: 0.7,
    judgeScore: 0.9,
    judgeMet: true,
    source: "accepted",
    ...fields,
  } satisfies CalibrationLabel;
}

describe("calibration", () => {
  it("reports the one budget criterion a reviewer marked against the judge since October", async () => {
    const sqlitePath = join(dir, "calibration.sqlite");
    const store = await openReviewStore({ sqlitePath });
    await store.addCalibrationLabels([
      // Marked 0.2 against the judge's 0.9 on a 0.7 threshold: the judge was too lenient.
      label({ criterionId: "totals_add_up", source: "marked", reviewerScore: 0.2 }),
      label({ criterionId: "lines_itemised" }),
      // Before `since`, and another content type: both outside the report.
      label({
        criterionId: "lines_itemised",
        decisionId: "decision-0",
        decidedAt: "2026-09-20T09:00:00.000Z",
        source: "marked",
        reviewerScore: 0.1,
      }),
      label({
        criterionId: "lines_itemised",
        decisionId: "decision-2",
        contentType: "methodology",
        source: "marked",
        reviewerScore: 0.1,
      }),
    ]);
    await store.close();

    const report = await budgetDisagreements(sqlitePath);
    expect(
      report.disagreements.map(({ criterionId, disagreed, compared }) => ({
        criterionId,
        disagreed,
        compared,
      })),
    ).toEqual([{ criterionId: "totals_add_up", disagreed: 1, compared: 1 }]);
  });
});

describe("model servers", () => {
  it("a pool of two Ollama servers and an OpenAI-compatible one judges every criterion once", async () => {
    const ollama = await Promise.all(
      [0, 1].map(() =>
        startOllamaServer({
          models: ["qwen2.5:7b-instruct"],
          responder: (request) => judgeResponder(0.9)(request.messages),
        }),
      ),
    );
    const openai = await startOpenAiServer({
      models: ["Qwen/Qwen2.5-7B-Instruct"],
      responder: (request) => judgeResponder(0.9)(request.messages),
    });
    try {
      const catalog = parseCatalog(
        JSON.stringify({
          id: "pool",
          name: "Pool",
          version: "1.0.0",
          criteria: ["aim", "method", "budget", "team", "risks", "impact"].map((id) => ({
            id,
            name: id,
            description: `Is the ${id} clear?`,
            weight: 1,
          })),
        }),
        { format: "json", source: "pool" },
      );
      const result = await judgeOnPool(
        "A plain proposal.",
        catalog,
        ollama[0]?.url,
        ollama[1]?.url,
        openai.url,
      );
      expect(result.passed).toBe(true);
      const perServer = [...ollama, openai].map((server) => server.chatRequests().length);
      expect(perServer.reduce((sum, n) => sum + n, 0)).toBe(6);
      // And the injection guard's call on the content, on one of them.
      const guard = [...ollama, openai].map((server) => server.guardRequests().length);
      expect(guard.reduce((sum, n) => sum + n, 0)).toBe(1);
    } finally {
      await Promise.all([...ollama.map((server) => server.close()), openai.close()]);
    }
  });
});

describe("blueprints", () => {
  it("the shipped blueprint, both candidates asked every prompt, coverage from the judge's 0.5", async () => {
    const server = await startOllamaServer({
      models: ["qwen2.5:7b-instruct", "llama3.2", "judge:test"],
      // A candidate is asked in plain text; the judge with its answer contract as `format`.
      responder: (request) =>
        request.format === undefined
          ? "Epictetus separates what is up to us from what is not."
          : JSON.stringify({ reasoning: "Half covered.", score: 0.5, hits: [], misses: [] }),
    });
    vi.stubEnv("OLLAMA_BASE_URL", server.url);
    vi.stubEnv("EVALGATE_MODEL", "judge:test");
    try {
      const run = await stoicismCoverage();
      const coverage = run.evaluationResults.llmCoverageScores["dichotomy-of-control"];
      // Points 0.5 (×1), 0.5 (×2), contains "Epictetus" 1 (×1); should_not judged 0.5 counts 0.5.
      // (0.5 + 1 + 1 + 0.5) / 5 = 0.6
      for (const model of ["ollama:qwen2.5:7b-instruct", "ollama:llama3.2"]) {
        const result = coverage?.[model];
        expect(result !== undefined && "avgCoverageExtent" in result).toBe(true);
        if (result !== undefined && "avgCoverageExtent" in result) {
          expect(result.avgCoverageExtent).toBeCloseTo(0.6, 10);
        }
      }
    } finally {
      await server.close();
    }
  });
});

describe("usage examples", () => {
  it("21 waiting reviews page as 20, then the one left, none twice", async () => {
    const orchestrator = new ReviewOrchestrator({
      graph: buildEvaluationGraph({
        model: new ScriptedChatModel({ responder: judgeResponder(0.9) }),
      }),
      checkpointerOptions: { sqlitePath: join(dir, "pages.sqlite") },
    });
    try {
      for (let i = 0; i < 21; i++) {
        await orchestrator.start({ content: `Section draft ${i}.`, contentType: "budget" });
      }
      const { first, next } = await firstTwoPages(orchestrator);
      expect(first).toHaveLength(20);
      expect(next).toHaveLength(1);
      const ids = new Set([...first, ...next].map((review) => review.threadId));
      expect(ids.size).toBe(21);
    } finally {
      await orchestrator.close();
    }
  });
});
