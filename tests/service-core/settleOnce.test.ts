/**
 * A thread stopped at a review is settled once: advancing it again (a retried job, the recovery
 * sweep) writes no second `review_ready` and leaves its index row as it is; and a run that meets a
 * decision recorded on the review it would list applies that decision instead of listing it.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { MODEL, nextReview, RFP } from "./helpers.js";

describe("a stop settled once", () => {
  let server: OllamaServer;
  let temp: ReturnType<typeof tempDir>;
  let desk: ReviewDeskHandle;
  const ana: Reviewer = { name: "ana", role: "reviewer" };

  beforeEach(async () => {
    server = await startOllamaServer({ models: [MODEL], responder: ollamaProposalResponder(0.85) });
    temp = tempDir("evalgate-settle-");
    desk = await createReviewDesk({
      sqlitePath: join(temp.dir, "checkpoints.sqlite"),
      env: { OLLAMA_BASE_URL: server.url },
      model: `ollama:${MODEL}`,
    });
  });
  afterEach(async () => {
    await desk.close();
    await server.close();
    temp.remove();
  });

  const readyEvents = async (threadId: string) =>
    (await desk.store.eventsAfter(threadId, 0, 500)).filter((e) => e.type === "review_ready");

  it("writes nothing when advanced again at the same review", async () => {
    const { threadId } = await desk.startProposal({ rfp: RFP, applicant: "A union." }, ana);
    const first = await nextReview(desk, threadId, ana);
    const before = {
      events: await readyEvents(threadId),
      pending: await desk.store.pendingOf(threadId),
    };
    const calls = server.chatRequests().length;
    expect(await desk.advanceThread(threadId)).toBe("waiting");
    expect(await desk.advanceThread(threadId)).toBe("waiting");
    expect(await readyEvents(threadId)).toEqual(before.events);
    expect(await desk.store.pendingOf(threadId)).toEqual(before.pending);
    expect(before.pending.map((p) => p.interruptId)).toEqual([first.interruptId]);
    expect(server.chatRequests().length).toBe(calls);
  });

  it("applies a decision it meets on the review instead of listing the review again", async () => {
    const { threadId } = await desk.startProposal({ rfp: RFP, applicant: "A union." }, ana);
    const first = await nextReview(desk, threadId, ana);
    // The decision recorded straight in the store (no job told): the next run meets it.
    const recorded = await desk.store.recordDecision({
      id: "d-1",
      threadId,
      interruptId: first.interruptId,
      stage: first.stage,
      reviewer: "ana",
      action: "approve",
      payload: {},
      decidedAt: new Date().toISOString(),
    });
    expect(recorded.kind).toBe("recorded");
    expect(await desk.advanceThread(threadId)).toBe("waiting");
    const pending = await desk.store.pendingOf(threadId);
    expect(pending.map((p) => p.interruptId)).not.toContain(first.interruptId);
    expect(pending.map((p) => p.stage)).toEqual(["solution"]);
    const [decision] = await desk.store.decisionsOf(threadId);
    expect(decision?.appliedAt).not.toBeNull();
  });
});
