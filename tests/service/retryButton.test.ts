/**
 * The Retry button of the thread page, as a browser without JavaScript uses it, on the real
 * review desk: offered only on a failed thread (here one whose recorded decision the graph
 * refused), guarded by the session's CSRF token, and taken once when two posts race.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Reviewer } from "../../src/store/reviewers.js";
import { PageClient } from "./pageClient.js";
import { eventually } from "./realDesk.js";
import { servedDeskForFile } from "./servedDesk.js";

const served = servedDeskForFile({ ana: "reviewer" });
let reviewer: Reviewer;

beforeAll(async () => {
  reviewer = (await served.real.desk.authenticate(served.tokens.ana))!;
});

const RETRY_FORM = 'id="retry-thread-form"';

async function waitingThread(): Promise<string> {
  const { threadId } = await served.real.desk.startProposal(
    { rfp: "Retry button\nFlood resilience grants.", applicant: "Harbour Trust" },
    reviewer,
  );
  await eventually(`the first review of ${threadId}`, async () => {
    const status = await served.real.desk.threadStatus(threadId, reviewer);
    if (status.status === "failed") throw new Error(`the thread failed: ${status.error}`);
    return status.status === "waiting" ? true : undefined;
  });
  return threadId;
}

describe("the Retry button on the thread page", () => {
  it("is offered only on a failed thread, needs the CSRF token, and retries once", async () => {
    const threadId = await waitingThread();
    const client = new PageClient(served.app);
    const csrf = await client.signIn(served.tokens.ana);
    const waiting = await (await client.get(`/threads/${threadId}`)).text();
    expect(waiting).not.toContain(RETRY_FORM);

    // A decision the research review does not take, recorded past the desk's check: refused.
    const research = await served.real.desk.getReview(threadId, reviewer);
    await served.real.desk.store.recordDecision({
      id: randomUUID(),
      threadId,
      interruptId: research.interruptId,
      stage: research.stage,
      reviewer: "ana",
      action: "retry",
      payload: {},
      decidedAt: new Date().toISOString(),
    });
    expect(await served.real.desk.advanceThread(threadId)).toBe("failed");

    const failed = await (await client.get(`/threads/${threadId}`)).text();
    expect(failed).toContain(RETRY_FORM);
    expect(failed).toContain(`action="/threads/${threadId}/retry"`);
    expect(failed).toContain(
      "The run could not take ana&#39;s decision (asked to try again on Research).",
    );

    const path = `/threads/${threadId}/retry`;
    const forged = await client.post(path, { _csrf: "x".repeat(32) });
    expect(forged.status).toBe(403);
    expect((await served.real.desk.threadStatus(threadId, reviewer)).status).toBe("failed");

    const posts = await Promise.all([
      client.post(path, { _csrf: csrf }),
      client.post(path, { _csrf: csrf }),
    ]);
    expect(posts.map((p) => p.status).sort()).toEqual([303, 409]);
    const taken = posts.find((p) => p.status === 303);
    expect(taken?.headers.get("location")).toBe(`/reviews/${threadId}/progress`);

    // The research review is back (asked again); the thread page offers no retry any more.
    const again = await eventually("the research review again", async () => {
      const status = await served.real.desk.threadStatus(threadId, reviewer);
      return status.status === "waiting"
        ? served.real.desk.getReview(threadId, reviewer)
        : undefined;
    });
    expect(again.stage).toBe("research");
    expect(again.interruptId).not.toBe(research.interruptId);
    const after = await (await client.get(`/threads/${threadId}`)).text();
    expect(after).not.toContain(RETRY_FORM);
  }, 180_000);
});
