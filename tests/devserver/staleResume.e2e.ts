/**
 * Agent Inbox's answers that come too late, through `langgraph dev`: the same answer sent again
 * after the last review finished the thread, and two answers sent at once for one review. Neither
 * may put the thread in `error` (Agent Inbox would drop it and call the run failed), run a node
 * again or answer a review nobody saw; a finished thread stays finished with its proposal intact.
 */
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { z } from "zod";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { type DevServer, startDevServer } from "./devServer.js";
import { ollamaProposalResponder } from "./proposalResponder.js";

const MODEL = "devserver-judge:7b";
const RFP = [
  "Calder Bay Community Foundation — Resilient Neighbourhoods 2026.",
  "Grants of USD 50,000–150,000 over two years for flood resilience serving low-income households.",
].join("\n");
const ACCEPT = [{ type: "accept", args: null }];
/** config/evaluation/criteria/solution.json: five criteria, one judge call each. */
const SOLUTION_CRITERIA = 5;

const Interrupted = z.array(z.looseObject({ value: z.looseObject({ contentId: z.string() }) }));

let ollama: OllamaServer;
let server: DevServer;
let client: Client;

beforeAll(async () => {
  ollama = await startOllamaServer({ models: [MODEL], responder: ollamaProposalResponder(0.85) });
  server = await startDevServer({ env: { OLLAMA_BASE_URL: ollama.url, EVALGATE_MODEL: MODEL } });
  client = new Client({ apiUrl: server.url });
});

afterAll(async () => {
  try {
    await server?.stop();
  } finally {
    await ollama?.close();
  }
});

beforeEach(async () => {
  await server.waitUntilReady();
  onTestFailed(() => {
    console.error(`langgraph dev output (last 4000 characters):\n${server.output().slice(-4000)}`);
  });
});

/** The review the thread waits on (its content id), or undefined when it waits on none. */
async function waitingReview(threadId: string): Promise<string | undefined> {
  const state = await client.threads.getState(threadId);
  const interrupts = Interrupted.parse(state.tasks.flatMap((t) => t.interrupts));
  expect(interrupts.length).toBeLessThanOrEqual(1);
  return interrupts[0]?.value.contentId;
}

/** Whether Agent Inbox lists the thread (it searches the interrupted ones). */
async function listedByInbox(threadId: string): Promise<boolean> {
  const listed = await client.threads.search({ status: "interrupted", limit: 1000 });
  return listed.some((t) => t.thread_id === threadId);
}

async function answer(threadId: string, resume: unknown = ACCEPT) {
  return client.runs.wait(threadId, "proposal", { command: { resume } });
}

describe("an answer sent again after the last review", () => {
  it("leaves the finished proposal finished and intact, runs nothing and calls no model", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "proposal", { input: { rfpDocument: RFP } });
    const reviewed: string[] = [];
    for (let review = await waitingReview(thread.thread_id); review !== undefined; ) {
      reviewed.push(review);
      await answer(thread.thread_id);
      review = await waitingReview(thread.thread_id);
    }
    expect(reviewed).toEqual([
      "research",
      "solution",
      "connection_pairs",
      "problem_statement",
      "methodology",
      "budget",
      "timeline",
      "conclusion",
    ]);
    const finished = await client.threads.get(thread.thread_id);
    expect(finished.status).toBe("idle");
    const before = await client.threads.getState(thread.thread_id);
    const calls = ollama.chatRequests().length;
    const guarded = ollama.guardRequests().length;

    const again = await answer(thread.thread_id);
    expect(again).toEqual(before.values);
    const after = await client.threads.getState(thread.thread_id);
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
    expect(after.next).toEqual([]);
    expect(after.values).toEqual(before.values);
    expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    expect(ollama.chatRequests().length).toBe(calls);
    expect(ollama.guardRequests().length).toBe(guarded);
    expect(await listedByInbox(thread.thread_id)).toBe(false);
  });
});

describe("two answers sent at once for one review", () => {
  /** The run sent with `strategy`, and its outcome: the values, or why the server refused it. */
  async function sendAnswer(threadId: string, resume: unknown, strategy: "reject" | "enqueue") {
    return client.runs
      .wait(threadId, "proposal", { command: { resume }, multitaskStrategy: strategy })
      .then(
        (values) => ({ values }),
        (error: unknown) => ({ refused: String(error) }),
      );
  }

  async function pausedAtResearch(): Promise<{ threadId: string; interruptId: string }> {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "proposal", { input: { rfpDocument: RFP } });
    expect(await waitingReview(thread.thread_id)).toBe("research");
    const state = await client.threads.getState(thread.thread_id);
    const [interrupt] = state.tasks.flatMap((t) => t.interrupts);
    return { threadId: thread.thread_id, interruptId: interrupt?.id ?? "" };
  }

  /** One answer applied: the research approved, the solution written and judged once, waiting. */
  async function expectResearchApprovedOnce(threadId: string, calls: number) {
    expect(ollama.chatRequests().length - calls).toBe(1 + SOLUTION_CRITERIA);
    const state = await client.threads.getState(threadId);
    expect((await client.threads.get(threadId)).status).toBe("interrupted");
    expect(await waitingReview(threadId)).toBe("solution");
    expect(state.values).toMatchObject({
      researchStatus: "approved",
      solutionSoughtStatus: "awaiting_review",
    });
    expect(await listedByInbox(threadId)).toBe(true);
  }

  it("as Agent Inbox sends them (a list of one, the server's default multitask strategy): the server refuses the second", async () => {
    const { threadId } = await pausedAtResearch();
    const calls = ollama.chatRequests().length;
    const outcomes = await Promise.all([
      sendAnswer(threadId, ACCEPT, "reject"),
      sendAnswer(threadId, ACCEPT, "reject"),
    ]);
    const refused = outcomes.flatMap((o) => ("refused" in o ? [o.refused] : []));
    expect(refused).toEqual([expect.stringMatching(/HTTP 422: Thread is already running a task/)]);
    await expectResearchApprovedOnce(threadId, calls);
  });

  it("queued, each naming the interrupt it answers: the second answers nothing", async () => {
    const { threadId, interruptId } = await pausedAtResearch();
    const calls = ollama.chatRequests().length;
    const answer = { [interruptId]: ACCEPT };
    const outcomes = await Promise.all([
      sendAnswer(threadId, answer, "enqueue"),
      sendAnswer(threadId, answer, "enqueue"),
    ]);
    expect(outcomes.filter((o) => "refused" in o)).toEqual([]);
    await expectResearchApprovedOnce(threadId, calls);
  });
});
