/**
 * A decision through ReviewOrchestrator leaves calibration labels: one per criterion of the
 * evaluation the reviewer saw, the judge's outcome beside the reviewer's corrections (given on the
 * criterion's own scale: 2 on a 1–5 criterion, fail on a pass/fail check). Bad corrections are
 * refused before the graph runs, and the thread stays paused.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { type Checkpointer, createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { openReviewStore } from "../../src/store/index.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import { scriptedProposalResponder } from "../devserver/proposalResponder.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { tempDir } from "./helpers.js";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * The funding catalog in data/criteria: c1 a pass/fail knockout check, c2 and c3 rated 1–5. The
 * scripted judge answers 0.75 of each scale: c1 pass, c2 and c3 4 on 1–5 (0.75).
 */
function fundingGate() {
  const model = new ScriptedChatModel({ responder: scriptedProposalResponder(0.75) });
  return buildEvaluationGraph({ model, criteriaDir: join(ROOT, "data", "criteria") });
}

const input = {
  content: "A Hamburg company builds tidal sensors for harbour flood warnings.",
  contentType: "funding",
  criteriaPath: "ifb_profi.toon",
};

describe("calibration labels from ReviewOrchestrator decisions", () => {
  let temp: ReturnType<typeof tempDir>;
  let checkpointer: Checkpointer;
  let reviews: ReviewOrchestrator<ReturnType<typeof fundingGate>>;
  let store: ReviewStore;

  beforeEach(async () => {
    temp = tempDir();
    const sqlitePath = join(temp.dir, "checkpoints.sqlite");
    checkpointer = await createCheckpointer({ sqlitePath, env: {} });
    reviews = new ReviewOrchestrator({ graph: fundingGate(), checkpointer });
    store = await openReviewStore({ sqlitePath, env: {} });
  });
  afterEach(async () => {
    await reviews.close();
    await store.close();
    await checkpointer.close();
    temp.remove();
  });

  async function paused(threadId: string) {
    const started = await reviews.start(input, { threadId });
    expect(started.state).toBe("paused");
    if (started.state !== "paused" || started.review === undefined) throw new Error("not paused");
    return started.review;
  }

  it("labels each criterion, the corrected ones with the reviewer's score on 0–1", async () => {
    const review = await paused("funded");
    await reviews.submitDecision("funded", review.interruptId, {
      action: "approve",
      reviewer: "ana",
      corrections: [
        { criterionId: "c2", score: 2, note: "an incremental sensor, not a new technique" },
        { criterionId: "c1", level: "fail" },
      ],
    });
    const labels = await store.labelsFor("funded");
    const byId = Object.fromEntries(labels.map((l) => [l.criterionId, l]));
    expect(labels.map((l) => l.criterionId)).toEqual(["c1", "c2", "c3"]);
    expect(byId.c2).toMatchObject({
      decisionId: `funded:${review.interruptId}`,
      threadId: "funded",
      contentType: "funding",
      reviewer: "ana",
      action: "approve",
      judgePassed: true,
      method: "score",
      judgeScore: 0.75,
      judgeNative: 4,
      judgeMet: true,
      source: "marked",
      reviewerScore: 0.25,
      reviewerNative: 2,
      reviewerNote: "an incremental sensor, not a new technique",
    });
    expect(byId.c1).toMatchObject({
      method: "check",
      judgeScore: 1,
      judgeNative: "pass",
      source: "marked",
      reviewerScore: 0,
      reviewerNative: "fail",
    });
    // c3 was not marked: the reviewer accepted the judge's 4 on 1–5 (0.75), kept as theirs.
    expect(byId.c3).toMatchObject({
      judgeScore: 0.75,
      source: "accepted",
      reviewerScore: 0.75,
      reviewerNative: 4,
    });
    // The thread moved on: the same decision again is refused and adds no label.
    await expect(
      reviews.submitDecision("funded", review.interruptId, { action: "approve" }),
    ).rejects.toThrow();
    expect(await store.labelsFor("funded")).toHaveLength(3);
    expect(await store.calibrationLabels({ contentType: "funding" })).toHaveLength(3);
  });

  it("records the catalog version the judge used, read back from the store", async () => {
    const review = await paused("versioned");
    await reviews.submitDecision("versioned", review.interruptId, { action: "approve" });
    const labels = await store.labelsFor("versioned");
    expect(labels.map((l) => l.judgedWith)).toEqual(Array(3).fill("ifb_profi@1.0"));
    const listed = await store.calibrationLabels({ contentType: "funding" });
    expect(listed.map((l) => l.judgedWith)).toEqual(Array(3).fill("ifb_profi@1.0"));
  });

  it("labels a revise without corrections as accepted, with the feedback", async () => {
    const review = await paused("revised");
    await reviews.submitDecision("revised", review.interruptId, {
      action: "revise",
      feedback: "Name the harbour districts the sensors cover.",
    });
    const labels = await store.labelsFor("revised");
    expect(labels.map((l) => [l.criterionId, l.source, l.action])).toEqual([
      ["c1", "accepted", "revise"],
      ["c2", "accepted", "revise"],
      ["c3", "accepted", "revise"],
    ]);
    expect(labels[0]?.feedback).toBe("Name the harbour districts the sensors cover.");
  });

  it("refuses corrections that do not fit the evaluation, and the thread stays paused", async () => {
    const review = await paused("refused");
    const refusals: Array<[unknown, string]> = [
      [{ criterionId: "c9", score: 2 }, "criterion 'c9'"],
      [{ criterionId: "c2", score: 6 }, "6 is outside the criterion's scale 1–5"],
      [{ criterionId: "c2", score: 2.5 }, "not a whole number"],
      [{ criterionId: "c2", level: "high" }, "not decided on levels"],
      [{ criterionId: "c1", level: "maybe" }, "takes pass or fail"],
      [{ criterionId: "c1", score: 1 }, "give a level (pass or fail)"],
      [{ criterionId: "c2" }, "give either score"],
    ];
    for (const [correction, message] of refusals) {
      const error = await reviews
        .submitDecision("refused", review.interruptId, {
          action: "approve",
          corrections: [correction],
        })
        .catch((e: unknown) => e);
      expect(isEvalgateError(error, "DECISION_INVALID"), JSON.stringify(correction)).toBe(true);
      expect(error instanceof Error ? error.message : "").toContain(message);
    }
    expect((await reviews.getReview("refused"))?.interruptId).toBe(review.interruptId);
    expect(await store.labelsFor("refused")).toEqual([]);
  });
});
