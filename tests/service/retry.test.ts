/**
 * A thread whose recorded decision the graph refuses fails with the decision kept aside; a retry
 * (once, however many ask at the same time) queues it again, the review comes back, and a new
 * decision on it is applied once. Through the JSON API over the real desk (temp SQLite folder,
 * in-process jobs, the Ollama-protocol server answering the writer and the judge).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { errorOf } from "./apiClient.js";
import { eventually } from "./realDesk.js";
import { servedDeskForFile } from "./servedDesk.js";

const served = servedDeskForFile({ ana: "reviewer" });

interface Review {
  threadId: string;
  interruptId: string;
  stage: string;
}
interface Status {
  status: string;
  error?: string;
  decisions: Array<{ action: string; appliedAt?: string; refusedAt?: string }>;
}

function reviewOf(threadId: string, stage: string): Promise<Review> {
  return eventually(`the ${stage} review of ${threadId}`, async () => {
    const answer = await served.client.get(`/api/reviews/${threadId}`, served.tokens.ana);
    const review = answer.body as Review;
    return answer.status === 200 && review.stage === stage ? review : undefined;
  });
}

const statusOf = async (threadId: string) =>
  (await served.client.get(`/api/threads/${threadId}`, served.tokens.ana)).body as Status;

describe("retrying a thread whose decision the graph refused", () => {
  it("fails it with the decision kept aside, retries once, and applies the next decision once", async () => {
    const started = await served.client.post("/api/proposals", served.tokens.ana, {
      rfp: "Retry\nFlood resilience grants.",
      applicant: "Harbour Trust",
    });
    const { threadId } = started.body as { threadId: string };
    const research = await reviewOf(threadId, "research");

    // A decision the review does not take, recorded as a replica that skipped the desk's check
    // would have: the graph refuses it when the job applies it.
    const recorded = await served.real.desk.store.recordDecision({
      id: randomUUID(),
      threadId,
      interruptId: research.interruptId,
      stage: research.stage,
      reviewer: "ana",
      action: "retry",
      payload: {},
      decidedAt: new Date().toISOString(),
    });
    expect(recorded.kind).toBe("recorded");
    expect(await served.real.desk.advanceThread(threadId)).toBe("failed");
    const failed = await statusOf(threadId);
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("refused the retry decision");
    expect(failed.decisions).toHaveLength(1);
    expect(failed.decisions[0]?.refusedAt).toEqual(expect.any(String));
    expect(failed.decisions[0]?.appliedAt).toBeUndefined();

    // Two retries at the same moment: one is taken, the other is told the thread is not failed.
    const path = `/api/threads/${threadId}/retry`;
    const retries = await Promise.all([
      served.client.post(path, served.tokens.ana, {}),
      served.client.post(path, served.tokens.ana, {}),
    ]);
    expect(retries.map((r) => r.status).sort()).toEqual([202, 409]);
    const refused = retries.find((r) => r.status === 409);
    expect(refused === undefined ? "" : errorOf(refused).code).toBe("THREAD_NOT_FAILED");

    // The research review is back (asked again: a new interrupt), and takes a new decision,
    // applied once.
    const again = await reviewOf(threadId, "research");
    expect(again.interruptId).not.toBe(research.interruptId);
    const writerCallsBefore = served.real.server.chatRequests().length;
    const approved = await served.client.post(
      `/api/reviews/${threadId}/decisions`,
      served.tokens.ana,
      {
        interruptId: again.interruptId,
        action: "approve",
      },
    );
    expect(approved.status).toBe(202);
    await reviewOf(threadId, "solution");
    expect(served.real.server.chatRequests().length).toBeGreaterThan(writerCallsBefore);
    const after = await statusOf(threadId);
    expect(after.decisions.map((d) => [d.action, d.appliedAt !== undefined])).toEqual([
      ["approve", true],
    ]);
    const events = await served.real.desk.events(threadId, { name: "ana", role: "reviewer" }, 0);
    expect(events.map((e) => e.message)).toContain(
      "retried by ana (set aside the refused ana's retry)",
    );

    // A thread that has not failed is not retried.
    const notFailed = await served.client.post(path, served.tokens.ana, {});
    expect(notFailed.status).toBe(409);
  }, 180_000);
});
