/**
 * The review desk on SQLite with its in-process jobs, against the Ollama-protocol server: a
 * proposal runs to its first review in a job, the queue lists it from the index, decisions are
 * checked (who, which interrupt, which action, once) and applied by the next job.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import { isEvalgateError } from "../../src/errors.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { addReviewer, eventually, MODEL, nextReview, RFP } from "./helpers.js";

async function refusal(promise: Promise<unknown>): Promise<{ code: string; details: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (isEvalgateError(error)) {
      return { code: error.code, details: (error as { details?: unknown }).details };
    }
    throw error;
  }
  throw new Error("expected the desk to refuse");
}

describe("the review desk on SQLite", () => {
  let server: OllamaServer;
  let temp: ReturnType<typeof tempDir>;
  let desk: ReviewDeskHandle;
  const ana: Reviewer = { name: "ana", role: "reviewer" };
  const boss: Reviewer = { name: "boss", role: "admin" };
  const bo: Reviewer = { name: "bo", role: "reviewer" };

  beforeEach(async () => {
    server = await startOllamaServer({ models: [MODEL], responder: ollamaProposalResponder(0.85) });
    temp = tempDir("evalgate-desk-");
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

  it("authenticates by token only, and not once revoked", async () => {
    const token = await addReviewer(desk.store, "ana");
    expect(await desk.authenticate(token)).toEqual(ana);
    expect(await desk.authenticate(`${token}x`)).toBeUndefined();
    expect(await desk.authenticate("")).toBeUndefined();
    expect(await desk.store.revokeReviewer("ana")).toBe(true);
    expect(await desk.authenticate(token)).toBeUndefined();
  });

  it("runs a proposal to its review, checks each decision, applies the accepted one once", async () => {
    for (const [name, role] of [
      ["ana", "reviewer"],
      ["boss", "admin"],
      ["bo", "reviewer"],
    ] as const) {
      await addReviewer(desk.store, name, role);
    }
    const { threadId } = await desk.startProposal(
      { rfp: RFP, applicant: "A tenants' union." },
      ana,
    );
    const first = await nextReview(desk, threadId, ana);
    expect(first.stage).toBe("research");
    expect(first.actions).toContain("approve");
    expect(first.content).not.toBe("");

    const page = await desk.listReviews(ana, { limit: 10 });
    expect(page.items.map((i) => [i.threadId, i.interruptId])).toEqual([
      [threadId, first.interruptId],
    ]);
    expect((await desk.listReviews(bo, { limit: 10 })).items).toEqual([]);
    expect((await refusal(desk.getReview(threadId, bo))).code).toBe("NOT_ASSIGNED");
    expect((await refusal(desk.assignReviewer(threadId, "bo", ana))).code).toBe("FORBIDDEN");
    expect((await refusal(desk.getReview("no-such-thread", boss))).code).toBe("THREAD_NOT_FOUND");

    const wrong = await refusal(
      desk.decide(threadId, { interruptId: "nope", action: "approve" }, ana),
    );
    expect(wrong.code).toBe("REVIEW_NOT_PENDING");
    const retry = await refusal(
      desk.decide(threadId, { interruptId: first.interruptId, action: "retry" }, ana),
    );
    expect(retry.code).toBe("ACTION_NOT_OFFERED");
    const noFeedback = await refusal(
      desk.decide(threadId, { interruptId: first.interruptId, action: "revise" }, ana),
    );
    expect(noFeedback.code).toBe("INVALID_INPUT");

    await desk.assignReviewer(threadId, "bo", boss);
    const writersBefore = server.chatRequests().filter((r) => isWriterPrompt(r.messages)).length;
    const accepted = await desk.decide(
      threadId,
      { interruptId: first.interruptId, action: "approve" },
      bo,
    );
    const again = await refusal(
      desk.decide(threadId, { interruptId: first.interruptId, action: "approve" }, ana),
    );
    expect(again.code).toBe("ALREADY_DECIDED");
    expect(again.details).toMatchObject({
      by: "bo",
      action: "approve",
      decisionId: accepted.decisionId,
    });

    const second = await nextReview(desk, threadId, ana, first.interruptId);
    expect(second.stage).toBe("solution");
    const writers = server.chatRequests().filter((r) => isWriterPrompt(r.messages)).length;
    expect(writers - writersBefore).toBe(1);

    const status = await desk.threadStatus(threadId, ana);
    expect(status.reviewers).toEqual(["ana", "bo"]);
    expect(status.decisions).toHaveLength(1);
    expect(status.decisions[0]).toMatchObject({
      reviewer: "bo",
      action: "approve",
      stage: "research",
    });
    expect(status.decisions[0]?.appliedAt).toBeDefined();
    expect(status.stages.find((s) => s.stage === "research")?.status).toBe("approved");
    const events = await desk.events(threadId, ana, 0);
    expect(events.map((e) => e.type)).toContain("review_ready");
    const later = await desk.events(threadId, ana, events.at(-1)?.seq ?? 0);
    expect(later).toEqual([]);
  }, 120_000);

  it("pages the queue newest first with a cursor", async () => {
    await addReviewer(desk.store, "ana");
    const threads: string[] = [];
    for (let i = 0; i < 3; i++) {
      threads.push(
        (await desk.startProposal({ rfp: `${RFP} ${i}`, applicant: "x" }, ana)).threadId,
      );
    }
    await eventually("three reviews", async () => {
      const page = await desk.listReviews(ana, { limit: 10 });
      return page.items.length === 3 ? page : undefined;
    });
    const one = await desk.listReviews(ana, { limit: 2 });
    expect(one.items).toHaveLength(2);
    expect(one.nextCursor).not.toBeNull();
    const two = await desk.listReviews(ana, { limit: 2, cursor: one.nextCursor ?? undefined });
    expect(two.items).toHaveLength(1);
    expect(two.nextCursor).toBeNull();
    const seen = [...one.items, ...two.items];
    expect(new Set(seen.map((i) => i.threadId))).toEqual(new Set(threads));
    const times = seen.map((i) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await refusal(desk.listReviews(ana, { limit: 2, cursor: "garbage" }))).code).toBe(
      "INVALID_INPUT",
    );
  }, 120_000);
});
