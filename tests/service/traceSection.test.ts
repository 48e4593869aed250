/**
 * The judge calls on the thread and review pages, and as JSON (page session and bearer API), on
 * the real review desk. One desk's writer slips a script tag into what it writes (the judge's
 * prompt carries it); another desk's judge is a LangChain model whose call parameters hold an
 * API key, with another key in the environment: neither may reach the page, the JSON or the store.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReviewDesk } from "../../src/desk/createReviewDesk.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import type { Trace } from "../../src/scoring/result.js";
import { createServiceApp } from "../../src/service/app.js";
import { callLabel, TRACE_PREVIEW_CHARS } from "../../src/service/pages/traceSection.js";
import { getTraces } from "../../src/store/index.js";
import { hashToken, newReviewerToken } from "../../src/store/tokens.js";
import {
  isWriterPrompt,
  ollamaProposalResponder,
  scriptedProposalResponder,
} from "../devserver/proposalResponder.js";
import { type OllamaResponder, ScriptedChatModel } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { apiClient } from "./apiClient.js";
import { PageClient } from "./pageClient.js";
import { eventually, openRealDesk, type RealDesk } from "./realDesk.js";

const SCRIPT = "<script>alert(1)</script>";
const PARAMETER_KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e";
const ENV_KEY = "sk-proj-0a1b2c3d4e5f6a7b8c9d0e1f";

function scriptWriter(): OllamaResponder {
  const answer = ollamaProposalResponder(0.85);
  return async (request, n) => {
    const text = await answer(request, n);
    if (!isWriterPrompt(request.messages)) return text;
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return "funder" in parsed ? JSON.stringify({ ...parsed, funder: `Fund ${SCRIPT}` }) : text;
  };
}

/** A judge whose provider reports its key among the call parameters, as some integrations do. */
class KeyedChatModel extends ScriptedChatModel {
  override invocationParams(options?: this["ParsedCallOptions"]): Record<string, unknown> {
    return {
      ...super.invocationParams(options),
      apiKey: PARAMETER_KEY,
      headers: { Authorization: `Bearer ${PARAMETER_KEY}` },
    };
  }
}

let real: RealDesk;
let ana: string;
let app: ReturnType<typeof createServiceApp>;

beforeAll(async () => {
  real = await openRealDesk(scriptWriter());
  ana = await real.addReviewer("ana", "admin");
  app = createServiceApp({ desk: real.desk, logError: () => {} });
}, 60_000);

afterAll(async () => {
  await real?.close();
});

async function firstReview(token: string): Promise<string> {
  const reviewer = (await real.desk.authenticate(token))!;
  const { threadId } = await real.desk.startProposal(
    { rfp: "Traces\nFlood resilience grants.", applicant: "Harbour Trust" },
    reviewer,
  );
  await eventually(`the first review of ${threadId}`, async () => {
    const status = await real.desk.threadStatus(threadId, reviewer);
    if (status.status === "failed") throw new Error(`the thread failed: ${status.error}`);
    return status.status === "waiting" ? true : undefined;
  });
  return threadId;
}

interface TracesBody {
  threadId: string;
  evaluations: Array<{
    evaluationId: string;
    traces: Array<{ id: string; userPrompt: string; model: string; purpose: string }>;
  }>;
}

describe("judge calls on the review pages", () => {
  it("lists each evaluation's calls collapsed, escaped and cut, with the whole call as JSON", async () => {
    const threadId = await firstReview(ana);
    const client = new PageClient(app);
    await client.signIn(ana);
    const html = await (await client.get(`/threads/${threadId}`)).text();
    expect(html).toContain('<section id="traces">');
    expect(html).toMatch(/<details class="trace-evaluation" data-evaluation-id="[^"]+"><summary>/);
    expect(html).toMatch(/Evaluation of Research at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(html).toContain("ollama:evalgate-service:test");
    expect(html).not.toContain(SCRIPT);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");

    const api = apiClient(app);
    const viaApi = await api.get(`/api/threads/${threadId}/traces`, ana);
    expect(viaApi.status).toBe(200);
    const body = viaApi.body as TracesBody;
    const calls = body.evaluations.flatMap((e) => e.traces);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((t) => t.model === "ollama:evalgate-service:test")).toBe(true);
    expect(html).toContain(`data-evaluation-id="${body.evaluations[0]?.evaluationId}"`);
    // Each call titled in words: what it was for, then the criteria it judged (no dangling "·").
    const summaries = [...html.matchAll(/<details class="trace-call"[^>]*><summary>([^<]*)</g)];
    expect(summaries.length).toBe(calls.length);
    for (const [, summary] of summaries) {
      expect(summary).toMatch(
        /^Call \d+: (Judging one criterion \([a-z0-9_]+\)|Checking the content for prompt injection)$/,
      );
    }
    // The injection guard is on, as users run it: one of the calls is its screening.
    expect(summaries.filter(([, s]) => s?.includes("prompt injection")).length).toBeGreaterThan(0);
    const first = calls[0] as unknown as Trace;
    expect(callLabel({ ...first, purpose: "guard", criterionIds: [] }, 0)).toBe(
      "Call 1: Checking the content for prompt injection",
    );

    // A prompt longer than the preview is cut on the page, and whole behind its link.
    const long = calls.find((t) => t.userPrompt.length > TRACE_PREVIEW_CHARS);
    expect(long).toBeDefined();
    const link = `/threads/${threadId}/traces?traceId=${long?.id}`;
    expect(html).toContain(`href="${link.replaceAll("&", "&amp;")}">show all</a>`);
    expect(html).not.toContain(long?.userPrompt);
    const whole = (await (await client.get(link)).json()) as TracesBody;
    expect(whole.evaluations.flatMap((e) => e.traces)).toEqual([long]);

    // The review page shows the calls of the evaluation under review only.
    const review = await (await client.get(`/reviews/${threadId}`)).text();
    expect(review).toContain('<section id="traces">');
    expect(review.match(/class="trace-evaluation"/g)).toHaveLength(1);
  }, 120_000);

  it("keeps them from reviewers who are not administrators: pages and the page session's JSON", async () => {
    const threadId = await firstReview(ana);
    const dee = await real.addReviewer("dee");
    const admin = (await real.desk.authenticate(ana))!;
    await real.desk.assignReviewer(threadId, "dee", admin);
    const client = new PageClient(app);
    await client.signIn(dee);
    for (const path of [`/threads/${threadId}`, `/reviews/${threadId}`]) {
      const page = await client.get(path);
      expect(page.status, path).toBe(200);
      const html = await page.text();
      expect(html, path).not.toContain('<section id="traces">');
      expect(html, path).not.toContain("ollama:evalgate-service:test");
      expect(html, path).not.toContain("Technical details");
    }
    const json = await client.get(`/threads/${threadId}/traces`);
    expect(json.status).toBe(403);
    expect(await json.text()).not.toContain("ollama:evalgate-service:test");
  }, 120_000);

  it("answers the API only with a bearer token, and only to a reviewer of the thread", async () => {
    const threadId = await firstReview(ana);
    const api = apiClient(app);
    expect((await api.get(`/api/threads/${threadId}/traces`)).status).toBe(401);
    const bo = await real.addReviewer("bo");
    expect((await api.get(`/api/threads/${threadId}/traces`, bo)).status).toBe(403);
    const anonymous = await new PageClient(app).get(`/threads/${threadId}/traces`);
    expect(anonymous.status).toBe(303);
  }, 120_000);
});

describe("secrets in the judge's parameters and environment", () => {
  it("never reach the page, the JSON or the trace store", async () => {
    const temp = tempDir("evalgate-traces-");
    const sqlitePath = join(temp.dir, "checkpoints.sqlite");
    const env = { OPENAI_API_KEY: ENV_KEY, EVALGATE_API_KEY: ENV_KEY };
    const model = new KeyedChatModel({ responder: scriptedProposalResponder(0.85) });
    const desk = await createReviewDesk({
      sqlitePath,
      env,
      model: createChatModel(model, { env }),
    });
    try {
      const token = newReviewerToken();
      await desk.store.addReviewer("cy", "admin", hashToken(token));
      const reviewer = (await desk.authenticate(token))!;
      const { threadId } = await desk.startProposal(
        { rfp: "Keys\nFlood resilience grants.", applicant: "Harbour Trust" },
        reviewer,
      );
      await eventually("the first review", async () => {
        const status = await desk.threadStatus(threadId, reviewer);
        if (status.status === "failed") throw new Error(`the thread failed: ${status.error}`);
        return status.status === "waiting" ? true : undefined;
      });
      expect(model.calls.length).toBeGreaterThan(0);
      const keyedApp = createServiceApp({ desk, logError: () => {} });
      const client = new PageClient(keyedApp);
      await client.signIn(token);
      const html = await (await client.get(`/threads/${threadId}`)).text();
      expect(html).toContain('<section id="traces">');
      expect(html).toContain("&quot;apiKey&quot;:&quot;***&quot;");
      const json = JSON.stringify(
        (await apiClient(keyedApp).get(`/api/threads/${threadId}/traces`, token)).body,
      );
      const stored = JSON.stringify(await getTraces({ threadId }, { sqlitePath }));
      expect(stored).toContain('"apiKey":"***"');
      for (const text of [html, json, stored]) {
        expect(text).not.toContain(PARAMETER_KEY);
        expect(text).not.toContain(ENV_KEY);
      }
    } finally {
      await desk.close();
      temp.remove();
    }
  }, 120_000);
});
