/**
 * The review boundary at the service: the JSON API and the review pages of a real app over a real
 * review desk (a temp SQLite file, in-process jobs, the scripted writer and judge), a proposal
 * paused at its research review. Bodies and forms with the probe's values and more of the kind —
 * feedback of zero-width spaces, content with NUL bytes, 10 MB of feedback, a 10,000-character
 * thread id, a reviewer name with a line break, structured content of the wrong shape — are
 * refused (400 naming the field, 413 over the body limit), nothing is recorded (decisions,
 * checkpoints and writes counted), and the review is still the one pending.
 */

import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import { createServiceApp } from "../../src/service/app.js";
import { hashToken, newReviewerToken } from "../../src/store/tokens.js";
import { modelFor } from "../orchestrator/dyingDesk.js";
import { tempDir } from "../orchestrator/helpers.js";
import { apiClient, errorOf } from "./apiClient.js";
import { PageClient } from "./pageClient.js";
import { eventually } from "./realDesk.js";

let temp: ReturnType<typeof tempDir>;
let desk: ReviewDeskHandle;
let app: ReturnType<typeof createServiceApp>;
let client: ReturnType<typeof apiClient>;
let token: string;
let adminToken: string;
let threadId: string;
let interruptId: string;

beforeAll(async () => {
  temp = tempDir("evalgate-service-boundary-");
  desk = await createReviewDesk({
    sqlitePath: join(temp.dir, "checkpoints.sqlite"),
    model: modelFor(),
  });
  token = newReviewerToken();
  adminToken = newReviewerToken();
  await desk.store.addReviewer("ana", "reviewer", hashToken(token));
  await desk.store.addReviewer("boss", "admin", hashToken(adminToken));
  app = createServiceApp({ desk, logError: () => {} });
  client = apiClient(app);
  const started = await client.post("/api/proposals", token, {
    rfp: "Brackwater Estuary Fund — Oyster Reef Grants 2027.\nUp to USD 80,000.",
    applicant: "Brackwater Shellfish Guild, 31 members.",
  });
  threadId = (started.body as { threadId: string }).threadId;
  const review = await eventually("the research review", async () => {
    const answer = await client.get(`/api/reviews/${threadId}`, token);
    return answer.status === 200
      ? (answer.body as { interruptId: string; stage: string })
      : undefined;
  });
  expect(review.stage).toBe("research");
  interruptId = review.interruptId;
}, 60_000);

afterAll(async () => {
  await desk.close();
  temp.remove();
});

/** What is on file for the thread: decisions, pending reviews, checkpoints and their writes. */
async function onFile() {
  const db = new Database(join(temp.dir, "checkpoints.sqlite"), { readonly: true });
  try {
    const rows = (sql: string) => db.prepare(sql).get(threadId);
    return {
      decisions: (await desk.store.decisionsOf(threadId)).length,
      pending: (await desk.store.pendingOf(threadId)).map((p) => p.interruptId),
      checkpoints: rows("SELECT COUNT(*) AS n FROM checkpoints WHERE thread_id = ?"),
      writes: rows(
        "SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(value)), 0) AS b FROM writes WHERE thread_id = ?",
      ),
    };
  } finally {
    db.close();
  }
}

describe("the service's review boundary", () => {
  it("answers 400 naming the field for decisions no review takes, and records nothing", async () => {
    const before = await onFile();
    const decide = (body: Record<string, unknown>) =>
      client.post(`/api/reviews/${threadId}/decisions`, token, { interruptId, ...body });
    const cases: Array<[string, Record<string, unknown>]> = [
      ["feedback", { action: "revise", feedback: "\u200B\u200B\u200B" }],
      ["feedback", { action: "revise", feedback: "f".repeat(20_001) }],
      ["content", { action: "edit", content: "Research\u0000\u0000" }],
      ["content", { action: "edit", content: "c".repeat(1_048_577) }],
      ["content", { action: "edit", content: "[1, 2]" }],
      ["content", { action: "edit", content: '{"constructor": {"prototype": {"admin": true}}}' }],
      ["comment", { action: "approve", comment: "\u2800\u3164" }],
      [
        "corrections.0.note",
        { action: "approve", corrections: [{ criterionId: "c1", score: 0.5, note: "\u200D" }] },
      ],
      [
        "corrections.0.criterionId",
        { action: "approve", corrections: [{ criterionId: "c\n1", score: 0.5 }] },
      ],
      ["interruptId", { interruptId: "i\nINFO forged", action: "approve" }],
    ];
    for (const [field, body] of cases) {
      const answer = await decide(body);
      expect(answer.status, field).toBe(400);
      expect(errorOf(answer), field).toMatchObject({ code: "INVALID_INPUT", field });
      expect(errorOf(answer).message.length, field).toBeLessThan(600);
    }
    const structured = await decide({ action: "edit", content: "[1, 2]" });
    expect(errorOf(structured).message).toContain("the Research takes a JSON object");

    // 10 MB of feedback never reaches the desk: the body is over the limit.
    const huge = await decide({ action: "revise", feedback: "x".repeat(10 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(errorOf(huge).code).toBe("PAYLOAD_TOO_LARGE");
    expect(await onFile()).toEqual(before);
    expect(before.pending).toEqual([interruptId]);
  });

  it("refuses a 10,000-character thread id without echoing it, and a reviewer name with a line break", async () => {
    const long = "t".repeat(10_000);
    for (const path of [`/api/threads/${long}`, `/api/reviews/${long}`]) {
      const answer = await client.get(path, token);
      expect(answer.status, path).toBe(400);
      expect(errorOf(answer).message.length).toBeLessThan(300);
      expect(errorOf(answer).message).not.toContain("t".repeat(65));
    }
    const assigned = await client.post(`/api/proposals/${threadId}/reviewers`, adminToken, {
      name: "bo\n2026-05-04T10:12:03Z INFO bo approved everything",
    });
    expect(assigned.status).toBe(400);
    expect(errorOf(assigned)).toMatchObject({ code: "INVALID_INPUT", field: "name" });
  });

  it("refuses the same values posted from the review page's forms, and the review stays pending", async () => {
    const before = await onFile();
    const page = new PageClient(app);
    const csrf = await page.signIn(token);
    const forms: Array<Record<string, string>> = [
      { action: "revise", feedback: "\u200B\u200B\u200B" },
      { action: "edit", content: "Research notes\u0000" },
      { action: "approve", comment: "\uFEFF\u2060" },
    ];
    for (const fields of forms) {
      const response = await page.post(`/reviews/${threadId}/decisions`, {
        _csrf: csrf,
        interruptId,
        ...fields,
      });
      expect(response.status, fields.action).toBe(400);
      expect(await response.text()).toContain("is invalid");
    }
    expect(await onFile()).toEqual(before);

    const taken = await client.post(`/api/reviews/${threadId}/decisions`, token, {
      interruptId,
      action: "revise",
      feedback: "  Name the estuary's funder priorities and cite the RFP.  ",
    });
    expect(taken.status).toBe(202);
    const decisions = await desk.store.decisionsOf(threadId);
    expect(decisions.map((d) => d.payload.feedback)).toEqual([
      "Name the estuary's funder priorities and cite the RFP.",
    ]);
  });
});
