/**
 * A replica on PostgreSQL stopped (its `stopping` signal, as SIGTERM aborts it under `evalgate
 * serve`) while its job writes the research: the model call held at the Ollama-protocol stand-in
 * is dropped, the thread is `queued` (never left "being worked on") with an event saying another
 * replica or the next start goes on — and another replica does: the job goes back to pg-boss and
 * the thread runs on to its first review there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { addReviewer, MODEL, nextReview, RFP } from "./helpers.js";
import { type PostgresCluster, startPostgres } from "./postgresCluster.js";

describe("a replica stopped while its job runs, on PostgreSQL", () => {
  let cluster: PostgresCluster;
  let server: OllamaServer;
  let observer: ReviewDeskHandle;
  const desks: ReviewDeskHandle[] = [];
  const ana: Reviewer = { name: "ana", role: "reviewer" };

  beforeAll(async () => {
    cluster = await startPostgres();
    server = await startOllamaServer({
      models: [MODEL],
      responder: ollamaProposalResponder(0.85),
      behaviour: { hold: "before-response" },
    });
    // The test's own view of the database: it reads, and never runs a job.
    observer = await createReviewDesk({ databaseUrl: cluster.url, env: {}, jobs: { run: false } });
    await addReviewer(observer.store, "ana");
  }, 300_000);

  afterAll(async () => {
    for (const desk of desks.splice(0)) await desk.close();
    await observer?.close();
    await server?.close();
    await cluster?.stop();
  }, 60_000);

  it("leaves the thread queued, saying who goes on, and another replica goes on", async () => {
    const env = { OLLAMA_BASE_URL: server.url };
    const replica = (stopping?: AbortSignal) =>
      createReviewDesk({
        databaseUrl: cluster.url,
        env,
        model: `ollama:${MODEL}`,
        ...(stopping === undefined ? {} : { stopping }),
      });
    const stop = new AbortController();
    const first = await replica(stop.signal);
    const { threadId } = await first.startProposal({ rfp: RFP, applicant: "Harbour Trust" }, ana);
    await server.waitFor((s) => s.held >= 1);
    expect((await observer.store.thread(threadId))?.status).toBe("running");

    stop.abort();
    await first.close();
    await server.waitFor((s) => s.clientDisconnects >= 1);
    expect((await observer.store.thread(threadId))?.status).toBe("queued");
    expect((await observer.store.eventsAfter(threadId, 0, 500)).at(-1)).toMatchObject({
      type: "queued",
      message:
        "the service stopped during this run; another replica, or the next start, goes on from its last finished step",
    });

    server.setBehaviour({});
    server.release();
    desks.push(await replica());
    const review = await nextReview(observer, threadId, ana);
    expect(review.stage).toBe("research");
    expect((await observer.store.thread(threadId))?.status).toBe("waiting");
  }, 240_000);
});
