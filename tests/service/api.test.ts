/**
 * The JSON API over the real review desk (temp SQLite folder, in-process jobs, the Ollama-protocol
 * server answering the writer and the judge): every status of the API list, answered through
 * `app.request()`.
 */
import { describe, expect, it } from "vitest";
import { createServiceApp, MAX_BODY_BYTES } from "../../src/service/app.js";
import { errorOf } from "./apiClient.js";
import { eventually } from "./realDesk.js";
import { servedDeskForFile } from "./servedDesk.js";

const served = servedDeskForFile({ ana: "reviewer", bo: "reviewer", boss: "admin" });

interface Review {
  threadId: string;
  interruptId: string;
  stage: string;
  actions: string[];
}

/** Starts a proposal as ana and waits for its first (or next, after `after`) review. */
async function startedReview(title: string): Promise<Review> {
  const started = await served.client.post("/api/proposals", served.tokens.ana, {
    rfp: `${title}\nFlood resilience grants.`,
    applicant: "Harbour Trust",
    title,
  });
  expect(started.status).toBe(202);
  const { threadId } = started.body as { threadId: string };
  return nextReview(threadId);
}

function nextReview(threadId: string, after?: string): Promise<Review> {
  return eventually(`a review of ${threadId}`, async () => {
    const answer = await served.client.get(`/api/reviews/${threadId}`, served.tokens.ana);
    if (answer.status !== 200) return undefined;
    const review = answer.body as Review;
    return review.interruptId === after ? undefined : review;
  });
}

describe("the review API", () => {
  it("answers health without a token and readiness from the database", async () => {
    expect(await served.client.get("/api/health")).toMatchObject({
      status: 200,
      body: { status: "ok" },
    });
    expect(await served.client.get("/api/ready")).toMatchObject({
      status: 200,
      body: { ready: true },
    });
  });

  it("answers 401 without a token, with an unknown one, and with a revoked one", async () => {
    const none = await served.client.get("/api/reviews");
    expect(none.status).toBe(401);
    expect(errorOf(none).code).toBe("UNAUTHENTICATED");
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect((await served.client.get("/api/reviews", `${served.tokens.ana}x`)).status).toBe(401);
    const carl = await served.real.addReviewer("carl");
    expect((await served.client.get("/api/reviews", carl)).status).toBe(200);
    await served.real.desk.store.revokeReviewer("carl");
    expect((await served.client.get("/api/reviews", carl)).status).toBe(401);
  });

  it("starts a proposal (202), lists it in the queue and opens its review", async () => {
    const review = await startedReview("Calder Bay dunes");
    expect(review.actions).toContain("approve");
    const page = await served.client.get("/api/reviews?limit=200", served.tokens.ana);
    expect(page.status).toBe(200);
    const items = (page.body as { items: { threadId: string; interruptId: string }[] }).items;
    expect(items).toContainEqual(
      expect.objectContaining({ threadId: review.threadId, interruptId: review.interruptId }),
    );
  });

  it("pages the queue with limit and cursor", async () => {
    await startedReview("Paging one");
    await startedReview("Paging two");
    const first = await served.client.get("/api/reviews?limit=1", served.tokens.ana);
    const body = first.body as { items: { threadId: string }[]; nextCursor: string | null };
    expect(body.items).toHaveLength(1);
    expect(body.nextCursor).not.toBeNull();
    const second = await served.client.get(
      `/api/reviews?limit=1&cursor=${encodeURIComponent(body.nextCursor!)}`,
      served.tokens.ana,
    );
    const next = second.body as { items: { threadId: string }[] };
    expect(next.items).toHaveLength(1);
    expect(next.items[0]!.threadId).not.toBe(body.items[0]!.threadId);
  });

  it("answers 400 naming the field for bodies and queries that do not fit", async () => {
    const missing = await served.client.post("/api/proposals", served.tokens.ana, {
      applicant: "x",
    });
    expect(missing.status).toBe(400);
    expect(errorOf(missing)).toMatchObject({ code: "INVALID_INPUT", field: "rfp" });
    const extra = await served.client.post("/api/proposals", served.tokens.ana, {
      rfp: "x",
      applicant: "y",
      reviewer: "boss",
    });
    expect(extra.status).toBe(400);
    expect(errorOf(extra).field).toBe("reviewer");
    const malformed = await served.client.postRaw("/api/proposals", served.tokens.ana, "{not json");
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed).code).toBe("INVALID_INPUT");
    // Read by the service's own JSON reader, which says where the body stops being JSON.
    expect(errorOf(malformed).message).toMatch(
      /^the request body is not usable JSON: line 1, column 2/,
    );
    const empty = await served.client.postRaw("/api/proposals", served.tokens.ana, "");
    expect(empty.status).toBe(400);
    expect(errorOf(empty).message).toMatch(/^the request body is not usable JSON/);
    for (const poisoned of [
      '{"rfp": "x", "applicant": "y", "__proto__": {"reviewer": "boss"}}',
      '{"rfp": "x", "applicant": "y", "\\u005f_proto__": {"admin": true}}',
      '{"rfp": "x", "applicant": "y", "constructor": {"prototype": {"admin": true}}}',
    ]) {
      const refused = await served.client.postRaw("/api/proposals", served.tokens.ana, poisoned);
      expect(refused.status, poisoned).toBe(400);
      expect(errorOf(refused).code).toBe("INVALID_INPUT");
      expect(errorOf(refused).message).toMatch(/not usable JSON.*(__proto__|constructor)/);
    }
    const limit = await served.client.get("/api/reviews?limit=0", served.tokens.ana);
    expect(limit.status).toBe(400);
    expect(errorOf(limit).field).toBe("limit");
  });

  it("answers 413 for a body over the limit", async () => {
    const huge = await served.client.postRaw(
      "/api/proposals",
      served.tokens.ana,
      JSON.stringify({ rfp: "x".repeat(MAX_BODY_BYTES), applicant: "y" }),
    );
    expect(huge.status).toBe(413);
    expect(errorOf(huge).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("answers 404 for an unknown thread and 403 for a reviewer not assigned, until an admin assigns them", async () => {
    const review = await startedReview("Assignments");
    const unknown = await served.client.get("/api/reviews/no-such-thread", served.tokens.ana);
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe("THREAD_NOT_FOUND");
    const stranger = await served.client.get(`/api/reviews/${review.threadId}`, served.tokens.bo);
    expect(stranger.status).toBe(403);
    const byReviewer = await served.client.post(
      `/api/proposals/${review.threadId}/reviewers`,
      served.tokens.ana,
      {
        name: "bo",
      },
    );
    expect(byReviewer.status).toBe(403);
    expect(errorOf(byReviewer).code).toBe("FORBIDDEN");
    const byAdmin = await served.client.post(
      `/api/proposals/${review.threadId}/reviewers`,
      served.tokens.boss,
      {
        name: "bo",
      },
    );
    expect(byAdmin.status).toBe(200);
    expect(
      (await served.client.get(`/api/reviews/${review.threadId}`, served.tokens.bo)).status,
    ).toBe(200);
  });

  it("takes a decision once: 202, then 409 saying by whom and when; 409 for another interrupt; 422; 400", async () => {
    const review = await startedReview("Decisions");
    const path = `/api/reviews/${review.threadId}/decisions`;
    const noInterrupt = await served.client.post(path, served.tokens.ana, { action: "approve" });
    expect(noInterrupt.status).toBe(400);
    expect(errorOf(noInterrupt).field).toBe("interruptId");
    const noContent = await served.client.post(path, served.tokens.ana, {
      interruptId: review.interruptId,
      action: "edit",
    });
    expect(noContent.status).toBe(400);
    expect(errorOf(noContent).field).toBe("content");
    const retry = await served.client.post(path, served.tokens.ana, {
      interruptId: review.interruptId,
      action: "retry",
    });
    expect(retry.status).toBe(422);
    expect(errorOf(retry).code).toBe("ACTION_NOT_OFFERED");
    const stale = await served.client.post(path, served.tokens.ana, {
      interruptId: "not-the-pending-one",
      action: "approve",
    });
    expect(stale.status).toBe(409);
    expect(errorOf(stale).code).toBe("REVIEW_NOT_PENDING");
    expect(
      (
        await served.client.post(path, served.tokens.bo, {
          interruptId: review.interruptId,
          action: "approve",
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await served.client.post("/api/reviews/no-such-thread/decisions", served.tokens.ana, {
          interruptId: "i",
          action: "approve",
        })
      ).status,
    ).toBe(404);

    const accepted = await served.client.post(path, served.tokens.ana, {
      interruptId: review.interruptId,
      action: "approve",
      comment: "Good.",
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ decisionId: expect.any(String) });
    const again = await served.client.post(path, served.tokens.ana, {
      interruptId: review.interruptId,
      action: "approve",
    });
    expect(again.status).toBe(409);
    expect(errorOf(again)).toMatchObject({
      code: "ALREADY_DECIDED",
      decidedBy: "ana",
      decidedAt: expect.any(String),
    });

    const next = await nextReview(review.threadId, review.interruptId);
    expect(next.interruptId).not.toBe(review.interruptId);
    const thread = await served.client.get(`/api/threads/${review.threadId}`, served.tokens.ana);
    expect(thread.status).toBe(200);
    const decisions = (
      thread.body as { decisions: { reviewer: string; action: string; decidedAt: string }[] }
    ).decisions;
    expect(decisions).toEqual([
      expect.objectContaining({
        reviewer: "ana",
        action: "approve",
        decidedAt: expect.any(String),
      }),
    ]);
  });

  it("streams the thread's events as SSE, from the start or after a sequence number", async () => {
    const review = await startedReview("Events");
    const app = createServiceApp({
      desk: served.real.desk,
      logError: () => {},
      events: { pollMs: 50 },
    });
    const response = await app.request(`http://127.0.0.1/api/threads/${review.threadId}/events`, {
      headers: { authorization: `Bearer ${served.tokens.ana}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("event: review_ready")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    await reader.cancel();
    expect(text).toMatch(
      /event: review_ready\ndata: \{[^\n]*"type":"review_ready"[^\n]*\}\nid: \d+\n/,
    );
    const forbidden = await served.client.get(
      `/api/threads/${review.threadId}/events`,
      served.tokens.bo,
    );
    expect(forbidden.status).toBe(403);
  });
});
