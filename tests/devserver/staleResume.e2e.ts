/**
 * Agent Inbox's answers that come too late, through `langgraph dev`: the same answer sent again
 * after the last review finished the thread, and two answers sent at once for one review. Neither
 * may put the thread in `error` (Agent Inbox would drop it and call the run failed), run a node
 * again or answer a review nobody saw; a finished thread stays finished with its proposal intact.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEV_RFP, useDevServer } from "./devServerSuite.js";

const ACCEPT = [{ type: "accept", args: null }];
/** config/evaluation/criteria/solution.json: five criteria, one judge call each. */
const SOLUTION_CRITERIA = 5;

const Interrupted = z.array(z.looseObject({ value: z.looseObject({ contentId: z.string() }) }));

const dev = useDevServer();

/** The review the thread waits on (its content id), or undefined when it waits on none. */
async function waitingReview(threadId: string): Promise<string | undefined> {
  const state = await dev.client.threads.getState(threadId);
  const interrupts = Interrupted.parse(state.tasks.flatMap((t) => t.interrupts));
  expect(interrupts.length).toBeLessThanOrEqual(1);
  return interrupts[0]?.value.contentId;
}

/** Whether Agent Inbox lists the thread (it searches the interrupted ones). */
async function listedByInbox(threadId: string): Promise<boolean> {
  const listed = await dev.client.threads.search({ status: "interrupted", limit: 1000 });
  return listed.some((t) => t.thread_id === threadId);
}

async function answer(threadId: string, resume: unknown = ACCEPT) {
  return dev.client.runs.wait(threadId, "proposal", { command: { resume } });
}

describe("an answer sent again after the last review", () => {
  it("leaves the finished proposal finished and intact, runs nothing and calls no model", async () => {
    const thread = await dev.client.threads.create();
    await dev.client.runs.wait(thread.thread_id, "proposal", { input: { rfpDocument: DEV_RFP } });
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
    const finished = await dev.client.threads.get(thread.thread_id);
    expect(finished.status).toBe("idle");
    const before = await dev.client.threads.getState(thread.thread_id);
    const calls = dev.ollama.chatRequests().length;
    const guarded = dev.ollama.guardRequests().length;

    const again = await answer(thread.thread_id);
    expect(again).toEqual(before.values);
    const after = await dev.client.threads.getState(thread.thread_id);
    expect((await dev.client.threads.get(thread.thread_id)).status).toBe("idle");
    expect(after.next).toEqual([]);
    expect(after.values).toEqual(before.values);
    expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    expect(dev.ollama.chatRequests().length).toBe(calls);
    expect(dev.ollama.guardRequests().length).toBe(guarded);
    expect(await listedByInbox(thread.thread_id)).toBe(false);
  });
});

describe("two answers sent at once for one review", () => {
  /** The run sent with `strategy`, and its outcome: the values, or why the server refused it. */
  async function sendAnswer(threadId: string, resume: unknown, strategy: "reject" | "enqueue") {
    return dev.client.runs
      .wait(threadId, "proposal", { command: { resume }, multitaskStrategy: strategy })
      .then(
        (values) => ({ values }),
        (error: unknown) => ({ refused: String(error) }),
      );
  }

  async function pausedAtResearch(): Promise<{ threadId: string; interruptId: string }> {
    const thread = await dev.client.threads.create();
    await dev.client.runs.wait(thread.thread_id, "proposal", { input: { rfpDocument: DEV_RFP } });
    expect(await waitingReview(thread.thread_id)).toBe("research");
    const state = await dev.client.threads.getState(thread.thread_id);
    const [interrupt] = state.tasks.flatMap((t) => t.interrupts);
    return { threadId: thread.thread_id, interruptId: interrupt?.id ?? "" };
  }

  /** One answer applied: the research approved, the solution written and judged once, waiting. */
  async function expectResearchApprovedOnce(threadId: string, calls: number) {
    expect(dev.ollama.chatRequests().length - calls).toBe(1 + SOLUTION_CRITERIA);
    const state = await dev.client.threads.getState(threadId);
    expect((await dev.client.threads.get(threadId)).status).toBe("interrupted");
    expect(await waitingReview(threadId)).toBe("solution");
    expect(state.values).toMatchObject({
      researchStatus: "approved",
      solutionSoughtStatus: "awaiting_review",
    });
    expect(await listedByInbox(threadId)).toBe(true);
  }

  it("as Agent Inbox sends them (a list of one, the server's default multitask strategy): the server refuses the second", async () => {
    const { threadId } = await pausedAtResearch();
    const calls = dev.ollama.chatRequests().length;
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
    const calls = dev.ollama.chatRequests().length;
    const answer = { [interruptId]: ACCEPT };
    const outcomes = await Promise.all([
      sendAnswer(threadId, answer, "enqueue"),
      sendAnswer(threadId, answer, "enqueue"),
    ]);
    expect(outcomes.filter((o) => "refused" in o)).toEqual([]);
    await expectResearchApprovedOnce(threadId, calls);
  });
});

describe("Agent Inbox's Mark as Resolved on a thread waiting at a review", () => {
  it("is refused: the thread stays interrupted and listed, at the same review", async () => {
    const thread = await dev.client.threads.create();
    await dev.client.runs.wait(thread.thread_id, "proposal", { input: { rfpDocument: DEV_RFP } });
    const before = await dev.client.threads.getState(thread.thread_id);
    // What Agent Inbox's "Mark as Resolved" sends.
    const resolved = await dev.client.threads
      .updateState(thread.thread_id, { values: null, asNode: "__end__" })
      .then(
        () => "applied",
        (error: unknown) => String(error),
      );
    // The server answers 500 without the message; its log names the refusal.
    expect(resolved).toMatch(/HTTP 500/);
    expect(dev.server.output()).toContain(
      `thread '${thread.thread_id}' waits at a review (reviewResearch): a state update as __end__`,
    );
    const after = await dev.client.threads.getState(thread.thread_id);
    expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    expect(await waitingReview(thread.thread_id)).toBe("research");
    expect((await dev.client.threads.get(thread.thread_id)).status).toBe("interrupted");
    expect(await listedByInbox(thread.thread_id)).toBe(true);
  });
});
