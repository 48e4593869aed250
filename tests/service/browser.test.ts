import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../../src/service/server.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import type { OllamaResponder } from "../doubles/index.js";
import { decideAndWaitForNext, STEP_TIMEOUT_MS, screenshot, signIn } from "./browserSteps.js";
import { launchChromium } from "./chromium.js";
import { openRealDesk, type RealDesk } from "./realDesk.js";

/**
 * The pages in a real Chromium over HTTP, on the real review desk (temp SQLite folder, jobs in
 * process, the Ollama-protocol server answering the writer and the judge). The model's answers can
 * be held at a gate, so the progress page is seen (and photographed) while the job waits.
 */
let browser: Browser;
let real: RealDesk;
let service: RunningService;
let token: string;
let gate: { opened: Promise<void>; open: () => void } | undefined;

function closeGate(): void {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  gate = { opened, open };
}

function openGate(): void {
  gate?.open();
  gate = undefined;
}

function gatedResponder(): OllamaResponder {
  const answer = ollamaProposalResponder(0.85);
  return async (request, n) => {
    if (gate !== undefined) await gate.opened;
    return answer(request, n);
  };
}

async function api(path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${service.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** Starts a proposal over the API and waits (by asking, not by the clock) for its first review. */
async function proposalWaitingForReview(title: string): Promise<string> {
  const started = await api("/api/proposals", {
    rfp: `${title}: flood resilience`,
    applicant: "A",
    title,
  });
  expect(started.status).toBe(202);
  const { threadId } = started.json as { threadId: string };
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    if ((await api(`/api/reviews/${threadId}`)).status === 200) return threadId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`thread ${threadId} never reached its first review`);
}

beforeAll(async () => {
  browser = await launchChromium();
  real = await openRealDesk(gatedResponder());
  token = await real.addReviewer("ada");
  service = await startService({
    desk: real.desk,
    host: "127.0.0.1",
    port: 0,
    events: { pollMs: 100 },
  });
}, 300_000);

afterAll(async () => {
  openGate();
  await browser?.close();
  await service?.close();
  await real?.close();
});

describe("the review pages in Chromium", () => {
  it(
    "signs in, lists the queue, approves, revises and edits, following progress to each next review",
    async () => {
      const threadId = await proposalWaitingForReview("Calder Bay flood resilience");
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      const page = await context.newPage();
      await signIn(page, service.url, token);
      await page.waitForSelector(`a[href="/reviews/${threadId}"]`);
      await screenshot(page, "queue");

      await page.click(`a[href="/reviews/${threadId}"]`);
      await page.waitForSelector("svg.chart");
      await screenshot(page, "review");

      const approved = await decideAndWaitForNext(
        page,
        service.url,
        threadId,
        async (p) => {
          closeGate();
          await p.click("#approve-form button[type=submit]");
        },
        async (p) => {
          await p.waitForSelector("#thread[data-live=true]");
          await screenshot(p, "progress");
          openGate();
        },
      );
      expect(approved.after).not.toBe(approved.before);

      const revised = await decideAndWaitForNext(page, service.url, threadId, async (p) => {
        await p.fill("#revise-feedback", "Name the county report and its page.");
        await p.click("#revise-form button[type=submit]");
      });
      expect(revised.after).not.toBe(revised.before);

      // The revised solution is round 2 and shows the feedback it answers.
      expect(await page.textContent("#answered-feedback")).toContain(
        "Name the county report and its page.",
      );
      expect(await page.textContent("#summary")).toContain("round 2 of at most 4");
      // The solution is edited one text area per field; emptied, it comes back refused, as typed.
      const areas = await page.$$eval("#edit-fields textarea", (nodes) =>
        nodes.map((n) => n.getAttribute("name")),
      );
      expect(areas).toContain("content.problem");
      expect(areas).toContain("content.desiredOutcomes");
      await page.$$eval("#edit-fields textarea", (nodes) => {
        for (const node of nodes) (node as unknown as { value: string }).value = "";
      });
      await page.fill("#edit-preferredApproaches", "  ");
      await page.click("#edit-form button[type=submit]");
      await page.waitForSelector("#edit-problems");
      expect(await page.textContent("#edit-problems")).toContain(
        "the solution sought has no field with content",
      );
      const edited = await decideAndWaitForNext(page, service.url, threadId, async (p) => {
        await p.fill("#edit-problem", "Flood evictions, as the county report shows (p. 4).");
        await p.fill("#edit-desiredOutcomes", "fewer evictions\nsafer ground floors");
        await p.click("#edit-form button[type=submit]");
      });
      expect(edited.after).not.toBe(edited.before);
      const proposal = await api(`/api/threads/${threadId}/proposal`);
      expect((proposal.json as { inputs: Array<{ content: unknown }> }).inputs[1]?.content).toEqual(
        {
          problem: "Flood evictions, as the county report shows (p. 4).",
          desiredOutcomes: ["fewer evictions", "safer ground floors"],
        },
      );

      const history = await api(`/api/threads/${threadId}`);
      const actions = (history.json as { decisions: { action: string; reviewer: string }[] })
        .decisions;
      expect(actions.map((d) => `${d.reviewer}:${d.action}`)).toEqual([
        "ada:approve",
        "ada:revise",
        "ada:edit",
      ]);
      await context.close();
    },
    STEP_TIMEOUT_MS * 4,
  );

  it(
    "works with JavaScript disabled: forms post, the progress page refreshes itself",
    async () => {
      const threadId = await proposalWaitingForReview("Harbour wall survey");
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await signIn(page, service.url, token);
      await page.goto(`${service.url}/reviews/${threadId}`);
      const approved = await decideAndWaitForNext(page, service.url, threadId, (p) =>
        p.click("#approve-form button[type=submit]"),
      );
      expect(approved.after).not.toBe(approved.before);
      await context.close();
    },
    STEP_TIMEOUT_MS * 2,
  );
});
