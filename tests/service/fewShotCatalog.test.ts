/**
 * The review desk `evalgate serve` runs on honours a catalog that turns few-shot examples on, with
 * no flag: a proposal started through the desk (in-process jobs, the Ollama-protocol stand-in at
 * the LLM boundary) whose research catalog says `fewShot.enabled` shows the judge the correction
 * kept in the desk's own database, and its evaluation names it; the shipped catalog (which does
 * not say) shows none.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createReviewDesk } from "../../src/desk/createReviewDesk.js";
import { fenceData } from "../../src/judge/fence.js";
import { buildTrace } from "../../src/judge/trace.js";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import { SqliteTraceStore } from "../../src/store/index.js";
import { ROOT } from "../cli/reviewHarness.js";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { firstReviewOfNewProposal } from "./realDesk.js";

const MODEL = "evalgate-fewshot:test";
const NOTE = "quotes a funder that does not exist";
const ADMIN = { name: "root", role: "admin" as const };

const CORRECTION: CalibrationLabel = {
  decisionId: "earlier-decision",
  threadId: "earlier-thread",
  stage: "research",
  contentType: "research",
  evaluationId: "earlier-evaluation",
  reviewer: "root",
  decidedAt: "2026-01-05T09:00:00.000Z",
  action: "revise",
  judgePassed: true,
  criterionId: "funder_priorities",
  criterionTitle: "Funder priorities and mission fit",
  method: "score",
  threshold: 0.7,
  judgeScore: 0.85,
  judgeMet: true,
  judgeNative: 0.85,
  source: "marked",
  reviewerScore: 0.2,
  reviewerNative: 0.2,
  reviewerNote: NOTE,
};

/** A correction kept in the database, with the traced content of the evaluation it was about. */
async function keepCorrection(
  sqlitePath: string,
  desk: Awaited<ReturnType<typeof createReviewDesk>>,
) {
  await desk.store.addCalibrationLabels([CORRECTION]);
  const db = new Database(sqlitePath);
  try {
    await new SqliteTraceStore(db).saveTraces({ evaluationId: CORRECTION.evaluationId }, [
      buildTrace({
        purpose: "criterion",
        criterionIds: ["funder_priorities"],
        model: `ollama:${MODEL}`,
        parameters: {},
        systemPrompt: "judge",
        userPrompt: `Content:\n${fenceData("CONTENT", '{"funder": "Calder Bay Community Foundation"}')}`,
        rawResponse: "{}",
        latencyMs: 1,
      }),
    ]);
  } finally {
    db.close();
  }
}

/** The research judge prompts for funder_priorities the server received after `from`. */
function funderPrompts(server: OllamaServer, from: number): string[] {
  return server
    .chatRequests()
    .slice(from)
    .filter((r) => !isWriterPrompt(r.messages))
    .map((r) => r.messages.at(-1)?.content ?? "")
    .filter((prompt) => prompt.includes("Criterion: Funder priorities and mission fit"));
}

async function researchReview(criteriaDir: string | undefined, server: OllamaServer) {
  const temp = tempDir("evalgate-fewshot-desk-");
  const sqlitePath = join(temp.dir, "checkpoints.sqlite");
  const desk = await createReviewDesk({
    sqlitePath,
    env: { OLLAMA_BASE_URL: server.url },
    model: `ollama:${MODEL}`,
    ...(criteriaDir === undefined ? {} : { graph: { evaluation: { criteriaDir } } }),
  });
  try {
    await keepCorrection(sqlitePath, desk);
    const from = server.chatRequests().length;
    const { review } = await firstReviewOfNewProposal(desk, ADMIN);
    return { review, prompts: funderPrompts(server, from) };
  } finally {
    await desk.close();
    temp.remove();
  }
}

describe("a catalog that turns few-shot examples on, under the review desk", () => {
  it("shows the judge the desk's corrections without any flag; a silent catalog shows none", async () => {
    const server = await startOllamaServer({
      models: [MODEL],
      responder: ollamaProposalResponder(0.85),
    });
    const folder = tempDir("evalgate-fewshot-criteria-");
    try {
      const shipped = JSON.parse(
        readFileSync(join(ROOT, "config/evaluation/criteria/research.json"), "utf8"),
      ) as Record<string, unknown>;
      mkdirSync(join(folder.dir, "criteria"));
      writeFileSync(
        join(folder.dir, "criteria", "research.json"),
        JSON.stringify({ ...shipped, fewShot: { enabled: true } }),
      );
      const on = await researchReview(join(folder.dir, "criteria"), server);
      expect(on.prompts).toHaveLength(1);
      expect(on.prompts[0]).toContain("<<<EXAMPLE id=");
      expect(on.prompts[0]).toContain(NOTE);
      expect(on.review.evaluation?.fewShotExamples).toEqual({
        funder_priorities: ["earlier-decision#funder_priorities"],
      });

      const silent = await researchReview(undefined, server);
      expect(silent.prompts.length).toBeGreaterThan(0);
      for (const prompt of silent.prompts) expect(prompt).not.toContain(NOTE);
      expect(silent.review.evaluation?.fewShotExamples).toBeUndefined();
    } finally {
      folder.remove();
      await server.close();
    }
  }, 120_000);
});
