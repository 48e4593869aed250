/**
 * The review desk `evalgate serve` and `evalgate run` advance threads on judges each stage with
 * the active rubric-registry version of its catalog in the desk's own database: a research
 * catalog registered there with a raised threshold turns the stage's pass into a fail, the
 * evaluation and its traces name research@version; a desk whose database holds no version
 * judges with the shipped file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/criteria/load.js";
import { createReviewDesk } from "../../src/desk/createReviewDesk.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import { ROOT } from "../cli/reviewHarness.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { eventually, firstReviewOfNewProposal } from "./realDesk.js";

const MODEL = "evalgate-registry:test";
const ADMIN = { name: "root", role: "admin" as const };

const shipped = await loadCatalog(join(ROOT, "config/evaluation/criteria/research.json"));

/** The research stage's evaluation and traces under a desk on a fresh database. */
async function researchEvaluation(server: OllamaServer, threshold: number | undefined) {
  const temp = tempDir("evalgate-registry-desk-");
  const sqlitePath = join(temp.dir, "checkpoints.sqlite");
  if (threshold !== undefined) {
    const registry = await RubricRegistry.open({ sqlitePath, env: {} });
    await registry.add(shipped);
    await registry.add({ ...shipped, passingThreshold: threshold });
    await registry.close();
  }
  const desk = await createReviewDesk({
    sqlitePath,
    env: { OLLAMA_BASE_URL: server.url },
    model: `ollama:${MODEL}`,
  });
  try {
    const { threadId, review } = await firstReviewOfNewProposal(desk, ADMIN);
    const traces = await desk.threadTraces(threadId, ADMIN);
    return { evaluation: review.evaluation, traces };
  } finally {
    await desk.close();
    temp.remove();
  }
}

describe("the review desk judges with the rubric registry of its database", () => {
  it("a registered version with a raised threshold decides; without one the file does", async () => {
    // Every criterion is judged 0.85, so the overall score is 0.85.
    const server = await startOllamaServer({
      models: [MODEL],
      responder: ollamaProposalResponder(0.85),
    });
    try {
      // The shipped file: 0.85 ≥ its threshold 0.7 → passed.
      const file = await researchEvaluation(server, undefined);
      expect(shipped.passingThreshold).toBe(0.7);
      expect(file.evaluation?.overallScore).toBeCloseTo(0.85, 10);
      expect(file.evaluation?.passed).toBe(true);
      expect(file.evaluation?.catalog.registryVersion).toBeUndefined();

      // Version 1.0.1 raises it to 0.9: 0.85 < 0.9 → not passed.
      const registered = await researchEvaluation(server, 0.9);
      expect(registered.evaluation?.overallScore).toBeCloseTo(0.85, 10);
      expect(registered.evaluation?.passed).toBe(false);
      expect(registered.evaluation?.catalog).toMatchObject({
        id: "research",
        version: "1.0.1",
        registryVersion: "research@1.0.1",
      });
      const calls = JSON.stringify(registered.traces);
      expect(calls).toContain('"registryVersion":"research@1.0.1"');
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe("a thread's revision after another version is activated", () => {
  it("is judged with the version active when it is judged, and names it", async () => {
    const server = await startOllamaServer({
      models: [MODEL],
      responder: ollamaProposalResponder(0.85),
    });
    const temp = tempDir("evalgate-registry-revision-");
    const sqlitePath = join(temp.dir, "checkpoints.sqlite");
    const registry = await RubricRegistry.open({ sqlitePath, env: {} });
    await registry.add(shipped);
    await registry.add({ ...shipped, passingThreshold: 0.9 });
    const desk = await createReviewDesk({
      sqlitePath,
      env: { OLLAMA_BASE_URL: server.url },
      model: `ollama:${MODEL}`,
    });
    try {
      // Round 1 under 1.0.1 (0.9): 0.85 does not pass.
      const { threadId, review } = await firstReviewOfNewProposal(desk, ADMIN);
      expect(review.evaluation?.catalog.registryVersion).toBe("research@1.0.1");
      expect(review.evaluation?.passed).toBe(false);

      // Rolled back while the thread waits; the reviewer asks for a revision.
      await registry.activate("research", "1.0.0");
      const feedback = "Name the funder's priorities.";
      await desk.decide(
        threadId,
        { interruptId: review.interruptId, action: "revise", feedback },
        ADMIN,
      );
      const revised = await eventually("the revision's review", async () => {
        const next = await desk.getReview(threadId, ADMIN).catch(() => undefined);
        return next !== undefined && next.interruptId !== review.interruptId ? next : undefined;
      });
      // Round 2 under 1.0.0 (the file's 0.7): the same 0.85 passes, and says which version.
      expect(revised.evaluation?.catalog.registryVersion).toBe("research@1.0.0");
      expect(revised.evaluation?.passed).toBe(true);
    } finally {
      await desk.close();
      await registry.close();
      temp.remove();
      await server.close();
    }
  }, 120_000);
});
