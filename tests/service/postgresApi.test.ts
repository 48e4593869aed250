/**
 * The JSON API on PostgreSQL: two service apps, each over its own review desk (its own jobs) on
 * one database, the Ollama-protocol server answering the writer and the judge. A proposal started
 * on one is listed and opened on the other; the same decision sent to both at once is accepted
 * once, and the thread moves on to its next review.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import { createServiceApp } from "../../src/service/app.js";
import { hashToken, newReviewerToken } from "../../src/store/tokens.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";
import { apiClient, errorOf } from "./apiClient.js";
import { eventually } from "./realDesk.js";

const MODEL = "evalgate-service-pg:test";
let cluster: PostgresCluster;
let server: OllamaServer;
const desks: ReviewDeskHandle[] = [];
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
let ana: string;

beforeAll(async () => {
  cluster = await startPostgres();
  server = await startOllamaServer({ models: [MODEL], responder: ollamaProposalResponder(0.85) });
  for (let i = 0; i < 2; i++) {
    desks.push(
      await createReviewDesk({
        databaseUrl: cluster.url,
        env: { OLLAMA_BASE_URL: server.url },
        model: `ollama:${MODEL}`,
        jobs: { recoveryIntervalMs: 1_000 },
      }),
    );
  }
  const [first, second] = desks as [ReviewDeskHandle, ReviewDeskHandle];
  a = apiClient(createServiceApp({ desk: first, logError: () => {} }));
  b = apiClient(createServiceApp({ desk: second, logError: () => {} }));
  ana = newReviewerToken();
  await first.store.addReviewer(`ana-${Date.now()}`, "admin", hashToken(ana));
}, 300_000);

afterAll(async () => {
  for (const desk of desks) await desk.close();
  await server?.close();
  await cluster?.stop();
}, 60_000);

interface Review {
  threadId: string;
  interruptId: string;
  stage: string;
}

function reviewOn(client: typeof a, threadId: string, stage: string): Promise<Review> {
  return eventually(`the ${stage} review of ${threadId}`, async () => {
    const answer = await client.get(`/api/reviews/${threadId}`, ana);
    const review = answer.body as Review;
    return answer.status === 200 && review.stage === stage ? review : undefined;
  });
}

describe("the review API on PostgreSQL, two app instances", () => {
  it("lists and opens on either, takes one decision once, and moves the thread on", async () => {
    const started = await a.post("/api/proposals", ana, {
      rfp: "Postgres\nFlood resilience grants.",
      applicant: "Harbour Trust",
      title: "On PostgreSQL",
    });
    expect(started.status).toBe(202);
    const { threadId } = started.body as { threadId: string };
    const review = await reviewOn(b, threadId, "research");
    const listed = (await b.get("/api/reviews?limit=50", ana)).body as { items: Review[] };
    expect(listed.items.map((i) => i.threadId)).toContain(threadId);

    const path = `/api/reviews/${threadId}/decisions`;
    const decision = {
      interruptId: review.interruptId,
      action: "approve",
      corrections: [
        { criterionId: "source_traceability", score: 0.5, note: "two sources undated" },
      ],
    };
    const answers = await Promise.all([a.post(path, ana, decision), b.post(path, ana, decision)]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    const refused = answers.find((r) => r.status === 409);
    expect(refused === undefined ? "" : errorOf(refused).code).toBe("ALREADY_DECIDED");
    // One calibration label per research criterion (five), once, whichever replica recorded it.
    const labels = await desks[1]!.store.labelsFor(threadId);
    // An accepted criterion keeps the judge's score, which the reviewer accepted, as theirs.
    expect(labels.map((l) => [l.criterionId, l.source, l.judgeScore, l.reviewerScore])).toEqual([
      ["award_parameters", "accepted", 0.85, 0.85],
      ["eligibility_requirements", "accepted", 0.85, 0.85],
      ["funder_priorities", "accepted", 0.85, 0.85],
      ["review_criteria_mapping", "accepted", 0.85, 0.85],
      ["source_traceability", "marked", 0.85, 0.5],
    ]);
    const decidedAt = labels[0]?.decidedAt ?? "";
    const page = await desks[0]!.store.calibrationLabels({
      since: decidedAt,
      contentType: "research",
    });
    expect(page.filter((l) => l.threadId === threadId)).toHaveLength(5);

    await reviewOn(a, threadId, "solution");
    const status = (await a.get(`/api/threads/${threadId}`, ana)).body as {
      decisions: Array<{ action: string; appliedAt?: string }>;
    };
    expect(status.decisions.map((d) => [d.action, d.appliedAt !== undefined])).toEqual([
      ["approve", true],
    ]);
  }, 240_000);
});
