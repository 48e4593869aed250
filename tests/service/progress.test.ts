/**
 * Progress between two reviews on the service: while a job writes and judges the next stage, the
 * thread's events say which stage is being written or judged and how many of its criteria are
 * done, in reviewers' words (no node names), the event stream delivers them as `progress`
 * events, and the progress page (without JavaScript too) shows where the run is now. The judge
 * call of one criterion is held at the Ollama-protocol server, so the run is caught mid-stage
 * by counting, not by timing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApp } from "../../src/service/app.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import type { ThreadEvent } from "../../src/store/threadEvents.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { apiClient } from "./apiClient.js";
import { PageClient } from "./pageClient.js";
import { eventually, openRealDesk, type RealDesk } from "./realDesk.js";

/** A judge prompt of the solution stage's last criterion (its title is in the prompt). */
const HELD_CRITERION = "Grounding in the RFP text";

let real: RealDesk;
let app: ReturnType<typeof createServiceApp>;
let token: string;
let ana: Reviewer;

beforeAll(async () => {
  real = await openRealDesk(ollamaProposalResponder(0.85));
  // Events polled often: the stream test reads them as they come.
  app = createServiceApp({ desk: real.desk, logError: () => {}, events: { pollMs: 20 } });
  token = await real.addReviewer("ana");
  const found = await real.desk.authenticate(token);
  if (found === undefined) throw new Error("ana could not sign in");
  ana = found;
}, 60_000);

afterAll(async () => {
  await real?.close();
});

function userPrompt(messages: ReadonlyArray<{ role: string; content: string }>): string {
  return messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
}

/** Reads an SSE response until `done` holds for the text so far, then cancels it. */
async function readStream(response: Response, done: (text: string) => boolean): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error("no stream");
  const decoder = new TextDecoder();
  let text = "";
  while (!done(text)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe("progress between reviews on the service", () => {
  it("says which stage is written and judged, criteria done of total, on the events, the stream and the progress page", async () => {
    const client = apiClient(app);
    const started = await client.post("/api/proposals", token, {
      rfp: "Calder Bay Resilient Neighbourhoods 2026\nFlood resilience grants.",
      applicant: "Harbour Trust",
      title: "Progress",
    });
    expect(started.status).toBe(202);
    const { threadId } = started.body as { threadId: string };
    const first = await eventually("the research review", async () => {
      const review = await client.get(`/api/reviews/${threadId}`, token);
      return review.status === 200 ? (review.body as { interruptId: string }) : undefined;
    });

    // The research was written and judged: its progress events, in words, in order.
    const research = (await real.desk.events(threadId, ana, 0)).filter(
      (e) => e.type === "progress",
    );
    expect(research.map((e) => e.message)).toEqual([
      "Writing Research",
      "Judging Research: 5 criteria",
      "Judging Research: 1 of 5 criteria done",
      "Judging Research: 2 of 5 criteria done",
      "Judging Research: 3 of 5 criteria done",
      "Judging Research: 4 of 5 criteria done",
      "Judging Research: 5 of 5 criteria done",
      expect.stringMatching(/^Research judged: 0\.\d\d, (passed|did not pass)$/),
    ]);
    expect(new Set(research.map((e) => e.stage))).toEqual(new Set(["research"]));
    const lastSeq = (await real.desk.events(threadId, ana, 0)).at(-1)?.seq ?? 0;

    // Approve; the solution's last criterion is held at the model server.
    real.server.setBehaviour((_n, request) =>
      userPrompt(request.messages).includes(HELD_CRITERION) ? { hold: "before-response" } : {},
    );
    const pages = new PageClient(app);
    const csrf = await pages.signIn(token);
    const posted = await pages.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: first.interruptId,
      action: "approve",
    });
    expect(posted.status).toBe(303);
    const progressUrl = posted.headers.get("location") ?? "";
    await real.server.waitFor((server) => server.held === 1);

    // Four of five judged, the fifth held: the page says so, without JavaScript.
    const page = await eventually("the page showing 4 of 5", async () => {
      const html = await (await pages.get(progressUrl)).text();
      return html.includes("Judging Solution Sought: 4 of 5 criteria done") ? html : undefined;
    });
    expect(page).toContain(
      '<p id="progress-now">Judging Solution Sought: 4 of 5 criteria done</p>',
    );
    expect(page).not.toMatch(/startEvaluate|evaluateSolution|generateSolution/);
    // The status is said once (the thread's line); the progress says what is done, not it again.
    expect(page).toContain('Status: <strong id="thread-status">being worked on</strong>');
    expect(page.match(/being worked on/g)).toHaveLength(1);
    expect(page).toContain("<h2>Working on the next step…</h2>");
    expect(page).not.toContain('id="progress-status"');

    // The event stream delivers the same progress as `progress` events.
    const stream = await app.request(
      `http://127.0.0.1/api/threads/${threadId}/events?after=${lastSeq}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(stream.status).toBe(200);
    const sse = await readStream(stream, (text) => text.includes("4 of 5 criteria done"));
    const progress = [...sse.matchAll(/^event: progress\ndata: (.+)$/gm)].map(
      (m) => JSON.parse(m[1] ?? "{}") as ThreadEvent,
    );
    expect(progress.map((e) => e.message)).toEqual([
      "Writing Solution Sought",
      "Judging Solution Sought: 5 criteria",
      "Judging Solution Sought: 1 of 5 criteria done",
      "Judging Solution Sought: 2 of 5 criteria done",
      "Judging Solution Sought: 3 of 5 criteria done",
      "Judging Solution Sought: 4 of 5 criteria done",
    ]);
    expect(progress.every((e) => e.stage === "solution")).toBe(true);

    // Released: the stage is judged and the page moves on to the review.
    real.server.setBehaviour({});
    real.server.release();
    const moved = await eventually("the solution review", async () => {
      const response = await pages.get(progressUrl);
      return response.status === 303 ? response : undefined;
    });
    expect(moved.headers.get("location")).toBe(`/reviews/${threadId}`);
    const all = await real.desk.events(threadId, ana, lastSeq);
    expect(all.filter((e) => e.type === "progress").at(-1)?.message).toMatch(
      /^Solution Sought judged: /,
    );
  }, 120_000);
});

describe("the progress page over a long history", () => {
  it("follows the stream from the thread's last event however many there are (read page by page)", async () => {
    const client = apiClient(app);
    const started = await client.post("/api/proposals", token, {
      rfp: "Long history RFP\nFlood resilience grants.",
      applicant: "Harbour Trust",
      title: "Long history",
    });
    const { threadId } = started.body as { threadId: string };
    const review = await eventually("the research review", async () => {
      const answer = await client.get(`/api/reviews/${threadId}`, token);
      return answer.status === 200 ? (answer.body as { interruptId: string }) : undefined;
    });
    // More events than the desk answers in one page (500).
    for (let i = 1; i <= 1234; i++) {
      await real.desk.store.addEvent(threadId, {
        type: "progress",
        stage: "research",
        message: `Judging Research: ${i % 5} of 5 criteria done`,
      });
    }
    let last = 0;
    for (;;) {
      const batch = await real.desk.events(threadId, ana, last);
      if (batch.length === 0) break;
      last = batch.at(-1)?.seq ?? last;
    }
    const pages = new PageClient(app);
    await pages.signIn(token);
    const response = await pages.get(
      `/reviews/${threadId}/progress?after=${encodeURIComponent(review.interruptId)}`,
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`data-events-url="/threads/${threadId}/events?after=${last}"`);
    // The thread waits for a review: nothing is being written or judged now.
    expect(html).toContain('<p id="progress-now"></p>');
  }, 120_000);
});
