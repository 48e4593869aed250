/**
 * Score corrections through the JSON API over the real review desk (temp SQLite, in-process jobs,
 * the Ollama-protocol server judging every research criterion 0.85 on its 0–1 scale): a decision
 * records one calibration label per criterion in the transaction that records it, bad corrections
 * are refused with 400 naming the criterion, a decision sent twice labels once, and the thread
 * shows the corrections it recorded.
 */
import { describe, expect, it } from "vitest";
import { errorOf } from "./apiClient.js";
import { eventually } from "./realDesk.js";
import { servedDeskForFile } from "./servedDesk.js";

/** The research catalog's criteria (config/evaluation/criteria/research.json), by id. */
const RESEARCH_CRITERIA = [
  "award_parameters",
  "eligibility_requirements",
  "funder_priorities",
  "review_criteria_mapping",
  "source_traceability",
];

const served = servedDeskForFile({ ana: "reviewer" });

interface Review {
  threadId: string;
  interruptId: string;
  stage: string;
}

async function researchReview(title: string): Promise<Review> {
  const started = await served.client.post("/api/proposals", served.tokens.ana, {
    rfp: `${title}\nFlood resilience grants.`,
    applicant: "Harbour Trust",
    title,
  });
  const { threadId } = started.body as { threadId: string };
  return eventually(`the research review of ${threadId}`, async () => {
    const answer = await served.client.get(`/api/reviews/${threadId}`, served.tokens.ana);
    return answer.status === 200 ? (answer.body as Review) : undefined;
  });
}

describe("score corrections in the review API", () => {
  it("records a label per criterion with the decision, the corrected one on the reviewer's score", async () => {
    const review = await researchReview("Corrected research");
    const decision = {
      interruptId: review.interruptId,
      action: "revise",
      feedback: "The award ceiling is missing.",
      corrections: [
        { criterionId: "award_parameters", score: 0.3, note: "no ceiling, no duration" },
      ],
    };
    const sent = await served.client.post(
      `/api/reviews/${review.threadId}/decisions`,
      served.tokens.ana,
      decision,
    );
    expect(sent.status).toBe(202);
    const again = await served.client.post(
      `/api/reviews/${review.threadId}/decisions`,
      served.tokens.ana,
      decision,
    );
    expect(again.status).toBe(409);

    const labels = await served.real.desk.store.labelsFor(review.threadId);
    expect(labels.map((l) => l.criterionId)).toEqual(RESEARCH_CRITERIA);
    const award = labels.find((l) => l.criterionId === "award_parameters");
    expect(award).toMatchObject({
      stage: "research",
      contentType: "research",
      reviewer: "ana",
      action: "revise",
      feedback: "The award ceiling is missing.",
      judgeScore: 0.85,
      source: "marked",
      reviewerScore: 0.3,
      reviewerNative: 0.3,
      reviewerNote: "no ceiling, no duration",
    });
    const others = labels.filter((l) => l.criterionId !== "award_parameters");
    expect(others.map((l) => [l.source, l.judgeScore])).toEqual(
      others.map(() => ["accepted", 0.85]),
    );

    const thread = await served.client.get(`/api/threads/${review.threadId}`, served.tokens.ana);
    const [recorded] = (thread.body as { decisions: Array<{ corrections?: unknown }> }).decisions;
    expect(recorded?.corrections).toEqual([
      {
        criterionId: "award_parameters",
        criterionTitle: expect.any(String),
        judgeScore: 0.85,
        judgeNative: 0.85,
        reviewerScore: 0.3,
        reviewerNative: 0.3,
        note: "no ceiling, no duration",
      },
    ]);
  });

  it("refuses corrections naming an unknown criterion or a score off the scale (400), deciding nothing", async () => {
    const review = await researchReview("Refused corrections");
    const path = `/api/reviews/${review.threadId}/decisions`;
    const unknown = await served.client.post(path, served.tokens.ana, {
      interruptId: review.interruptId,
      action: "approve",
      corrections: [{ criterionId: "budget_realism", score: 0.2 }],
    });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown).code).toBe("INVALID_INPUT");
    expect(errorOf(unknown).message).toContain("criterion 'budget_realism'");
    expect(errorOf(unknown).field).toBe("corrections.0.criterionId");

    const offScale = await served.client.post(path, served.tokens.ana, {
      interruptId: review.interruptId,
      action: "approve",
      corrections: [{ criterionId: "funder_priorities", score: 4 }],
    });
    expect(offScale.status).toBe(400);
    expect(errorOf(offScale).message).toContain("4 is outside the criterion's scale 0–1");

    const neither = await served.client.post(path, served.tokens.ana, {
      interruptId: review.interruptId,
      action: "approve",
      corrections: [{ criterionId: "funder_priorities" }],
    });
    expect(neither.status).toBe(400);

    expect(await served.real.desk.store.labelsFor(review.threadId)).toEqual([]);
    const still = await served.client.get(`/api/reviews/${review.threadId}`, served.tokens.ana);
    expect((still.body as Review).interruptId).toBe(review.interruptId);
  });
});
