/**
 * End to end through `langgraph dev` (what LangGraph Studio talks to): the graphs of
 * langgraph.json served offline, driven with @langchain/langgraph-sdk's Client, judged by the
 * Ollama-protocol test server that EVALGATE_MODEL and OLLAMA_BASE_URL point the server at.
 * Not part of `npm test`; run with `npm run test:devserver` (vitest.devserver.config.ts).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEV_MODEL, DEV_RFP, useDevServer } from "./devServerSuite.js";

const PROBLEM = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";
const EDITED = "Flooding in Calder Bay displaced 1,240 households in 2024 and 310 more in 2025.";
/** config/evaluation/criteria/problem_statement.json: five criteria, one judge call each. */
const CRITERIA = 5;

const GateValues = z.looseObject({
  status: z.string(),
  content: z.unknown(),
  evaluation: z.looseObject({ passed: z.boolean(), overallScore: z.number() }).nullish(),
  revisionFeedback: z.record(z.string(), z.string()).optional(),
  reviewHistory: z.array(z.looseObject({ action: z.string(), reviewer: z.string().optional() })),
});
const ReviewInterrupt = z.looseObject({
  type: z.enum(["evaluation_review", "evaluation_error", "revision_limit"]),
  contentId: z.string(),
  contentType: z.string(),
});
const JsonSchemaProperties = z.looseObject({
  properties: z.record(z.string(), z.looseObject({})).optional(),
});

const dev = useDevServer();

/** The thread's state, with its single pending interrupt (undefined when it has none). */
async function threadState(threadId: string) {
  const state = await dev.client.threads.getState(threadId);
  const interrupts = state.tasks.flatMap((t) => t.interrupts);
  expect(interrupts.length).toBeLessThanOrEqual(1);
  const interrupt = interrupts[0];
  return {
    next: state.next,
    values: state.values,
    interrupt:
      interrupt === undefined
        ? undefined
        : { id: interrupt.id, value: ReviewInterrupt.parse(interrupt.value) },
  };
}

/** Starts the evaluation graph on a new thread and checks it paused at the review. */
async function pausedGate(context?: Record<string, unknown>): Promise<string> {
  const before = dev.ollama.chatRequests().length;
  const thread = await dev.client.threads.create();
  await dev.client.runs.wait(thread.thread_id, "evaluation", {
    input: { content: PROBLEM, contentType: "problem_statement" },
    ...(context === undefined ? {} : { context }),
  });
  const state = await threadState(thread.thread_id);
  expect(state.next).toEqual(["review"]);
  expect(state.interrupt?.value).toMatchObject({
    type: "evaluation_review",
    contentType: "problem_statement",
  });
  expect(GateValues.parse(state.values).status).toBe("awaiting_review");
  expect((await dev.client.threads.get(thread.thread_id)).status).toBe("interrupted");
  expect(dev.ollama.chatRequests().length - before).toBe(CRITERIA);
  return thread.thread_id;
}

async function resume(threadId: string, value: unknown, graph = "evaluation") {
  const before = dev.ollama.chatRequests().length;
  await dev.client.runs.wait(threadId, graph, { command: { resume: value } });
  return { judgeCalls: dev.ollama.chatRequests().length - before };
}

describe("langgraph dev serving langgraph.json", () => {
  it("registers every graph of langgraph.json", async () => {
    const assistants = await dev.client.assistants.search({ limit: 100 });
    expect(assistants.map((a) => a.graph_id).sort()).toEqual([...dev.server.graphIds].sort());
  });

  it("gives Studio the evaluation graph's context schema and every edge", async () => {
    const [assistant] = await dev.client.assistants.search({ graphId: "evaluation" });
    expect(assistant).toBeDefined();
    const schemas = await dev.client.assistants.getSchemas(assistant?.assistant_id ?? "");
    const context = JsonSchemaProperties.parse(schemas.context_schema);
    expect(Object.keys(context.properties ?? {}).sort()).toEqual([
      "maxRevisions",
      "mode",
      "model",
      "passingThreshold",
    ]);
    const graph = await dev.client.assistants.getGraph(assistant?.assistant_id ?? "");
    const edges = z
      .array(z.object({ source: z.string(), target: z.string() }))
      .parse(graph.edges)
      .map((e) => `${e.source}->${e.target}`);
    expect(edges).toEqual(
      expect.arrayContaining([
        "__start__->startEvaluate",
        "startEvaluate->evaluate",
        "evaluate->review",
        "review->startEvaluate",
        "review->__end__",
      ]),
    );
  });

  it("gives Studio the evaluation graph's input schema", async () => {
    const [assistant] = await dev.client.assistants.search({ graphId: "evaluation" });
    const schemas = await dev.client.assistants.getSchemas(assistant?.assistant_id ?? "");
    const input = JsonSchemaProperties.nullish().parse(schemas.input_schema);
    expect(Object.keys(input?.properties ?? {}).sort()).toEqual([
      "content",
      "contentType",
      "criteriaPath",
    ]);
  });
});

describe("the evaluation graph through the SDK", () => {
  it("pauses at the review; approve finishes it approved without judging again", async () => {
    const threadId = await pausedGate();
    const { judgeCalls } = await resume(threadId, { action: "approve", reviewer: "ana" });
    expect(judgeCalls).toBe(0);
    const state = await threadState(threadId);
    expect(state.next).toEqual([]);
    expect(state.interrupt).toBeUndefined();
    const values = GateValues.parse(state.values);
    expect(values.status).toBe("approved");
    expect(values.evaluation).toMatchObject({ passed: true, overallScore: 0.85 });
    expect(values.reviewHistory).toEqual([
      expect.objectContaining({ action: "approve", reviewer: "ana" }),
    ]);
    expect((await dev.client.threads.get(threadId)).status).toBe("idle");
  });

  it("revise with feedback ends revision_requested", async () => {
    const threadId = await pausedGate();
    await resume(threadId, { action: "revise", feedback: "Add the 2025 figures." });
    const values = GateValues.parse((await threadState(threadId)).values);
    expect(values.status).toBe("revision_requested");
    expect(values.revisionFeedback).toEqual({ content: "Add the 2025 figures." });
  });

  it("edit ends edited with the reviewer's content", async () => {
    const threadId = await pausedGate();
    await resume(threadId, { action: "edit", content: EDITED });
    const values = GateValues.parse((await threadState(threadId)).values);
    expect(values.status).toBe("edited");
    expect(values.content).toBe(EDITED);
  });

  it("an invalid resume value does not fail the run: the review asks again, the thread stays interrupted", async () => {
    const threadId = await pausedGate();
    const before = await threadState(threadId);
    await resume(threadId, { action: "revise" });
    const after = await threadState(threadId);
    expect(after.next).toEqual(["review"]);
    expect(after.interrupt?.id).not.toBe(before.interrupt?.id);
    expect(after.interrupt?.value).toMatchObject({ refusal: { field: "feedback" } });
    expect((await dev.client.threads.get(threadId)).status).toBe("interrupted");
    await resume(threadId, { action: "approve" });
    expect(GateValues.parse((await threadState(threadId)).values).status).toBe("approved");
  });

  it("a run's context sets the passing threshold", async () => {
    const threadId = await pausedGate({ passingThreshold: 0.9 });
    const values = GateValues.parse((await threadState(threadId)).values);
    expect(values.evaluation).toMatchObject({ passed: false, overallScore: 0.85 });
  });

  it("an answer with other settings than the thread's keeps it interrupted and listed, with the reason", async () => {
    const threadId = await pausedGate({ passingThreshold: 0.9 });
    const before = await threadState(threadId);
    const calls = dev.ollama.chatRequests().length;
    await dev.client.runs.wait(threadId, "evaluation", {
      command: { resume: { action: "approve", reviewer: "ana" } },
      context: { passingThreshold: 0.8 },
    });
    const after = await threadState(threadId);
    expect((await dev.client.threads.get(threadId)).status).toBe("interrupted");
    const listed = await dev.client.threads.search({ status: "interrupted", limit: 1000 });
    expect(listed.some((t) => t.thread_id === threadId)).toBe(true);
    expect(after.next).toEqual(["review"]);
    expect(after.interrupt?.value.contentId).toBe(before.interrupt?.value.contentId);
    expect(after.interrupt?.value).toMatchObject({
      refusal: {
        field: "context",
        problem: expect.stringContaining("passingThreshold: started with 0.9, this run gives 0.8"),
      },
      description: expect.stringContaining("passingThreshold: started with 0.9"),
    });
    expect(GateValues.parse(after.values).reviewHistory).toEqual([]);
    await resume(threadId, { action: "approve", reviewer: "ana" });
    const done = GateValues.parse((await threadState(threadId)).values);
    expect(done.status).toBe("approved");
    expect(done.evaluation).toMatchObject({ passed: false, overallScore: 0.85 });
    expect(dev.ollama.chatRequests().length).toBe(calls);
  });

  it("every judge call reached the Ollama server with EVALGATE_MODEL at temperature 0.1", () => {
    const chats = dev.ollama.chatRequests();
    expect(chats.length).toBeGreaterThanOrEqual(CRITERIA);
    for (const chat of chats) {
      expect(chat.model).toBe(DEV_MODEL);
      expect(chat.options?.temperature).toBe(0.1);
    }
    // The injection guard is on under the dev server, as users get it: its calls came too.
    const guarded = dev.ollama.guardRequests();
    expect(guarded.length).toBeGreaterThan(0);
    for (const chat of guarded) expect(chat.model).toBe(DEV_MODEL);
  });
});

describe("the proposal graph through the SDK", () => {
  it("writes and judges the research, pauses at its review, and approve moves on to the solution", async () => {
    const before = dev.ollama.chatRequests().length;
    const thread = await dev.client.threads.create();
    await dev.client.runs.wait(thread.thread_id, "proposal", { input: { rfpDocument: DEV_RFP } });
    const first = await threadState(thread.thread_id);
    expect(first.next).toEqual(["reviewResearch"]);
    expect(first.interrupt?.value).toMatchObject({
      type: "evaluation_review",
      contentId: "research",
    });
    expect(dev.ollama.chatRequests().length - before).toBe(1 + CRITERIA); // writer + judge

    await resume(thread.thread_id, { action: "approve" }, "proposal");
    const second = await threadState(thread.thread_id);
    expect(second.next).toEqual(["reviewSolution"]);
    expect(second.interrupt?.value.contentId).toBe("solution");
    expect(second.values).toMatchObject({
      researchStatus: "approved",
      solutionSoughtStatus: "awaiting_review",
    });
    expect(dev.ollama.chatRequests().length - before).toBe(2 * (1 + CRITERIA));
  });
});

/** The thread as Agent Inbox lists it: interrupted, with its one interrupt's value. */
async function inboxView(threadId: string) {
  const listed = await dev.client.threads.search({ status: "interrupted", limit: 1000 });
  const thread = listed.find((t) => t.thread_id === threadId);
  const interrupts = Object.values(thread?.interrupts ?? {}).flat();
  return {
    listed: thread !== undefined,
    status: (await dev.client.threads.get(threadId)).status,
    interrupts: interrupts.map((i) => InboxInterrupt.parse(i.value)),
  };
}

const InboxInterrupt = z.looseObject({
  description: z.string(),
  refusal: z.object({ field: z.string(), problem: z.string(), fix: z.string() }).optional(),
  action_request: z.object({ action: z.string() }),
});

describe("Agent Inbox's answers through the SDK: a refused one keeps the thread interrupted", () => {
  it("ignore, an edit that is not JSON, a wrong type, a missing field: each asked again; then accept goes on", async () => {
    const thread = await dev.client.threads.create();
    await dev.client.runs.wait(thread.thread_id, "proposal", { input: { rfpDocument: DEV_RFP } });
    const research = (await threadState(thread.thread_id)).values as {
      researchResults?: unknown;
    };
    const start = await inboxView(thread.thread_id);
    expect(start).toMatchObject({ listed: true, status: "interrupted" });
    const action = start.interrupts[0]?.action_request.action ?? "";
    const edit = (content: string) => [{ type: "edit", args: { action, args: { content } } }];
    const answers: Array<[string, unknown, string, RegExp]> = [
      ["ignore", [{ type: "ignore", args: null }], "type", /cannot be ignored/],
      ["bad JSON", edit('{"funder": "Calder'), "args.args.content", /not usable JSON/],
      [
        "wrong type",
        edit('{"funder": 42}'),
        "args.args.content",
        /funder: takes text, not a number/,
      ],
      [
        "missing field",
        edit('{"priorities": null}'),
        "args.args.content",
        /priorities: is required/,
      ],
    ];
    for (const [what, answer, field, problem] of answers) {
      const ran = await dev.client.runs.wait(thread.thread_id, "proposal", {
        command: { resume: answer },
      });
      expect(ran, what).not.toHaveProperty("__error__");
      const view = await inboxView(thread.thread_id);
      expect(view.listed, what).toBe(true);
      expect(view.status, what).toBe("interrupted");
      expect(view.interrupts, what).toHaveLength(1);
      const [asked] = view.interrupts;
      expect(asked?.refusal?.field, what).toBe(field);
      expect(asked?.refusal?.problem, what).toMatch(problem);
      expect(asked?.description, what).toMatch(/^\*\*Your last answer was not accepted\.\*\*/);
      expect(asked?.description, what).toContain("**How to fix it:**");
    }
    // Nothing refused reached the research.
    expect((await threadState(thread.thread_id)).values).toMatchObject({
      researchResults: research.researchResults,
      researchStatus: "awaiting_review",
    });
    await dev.client.runs.wait(thread.thread_id, "proposal", {
      command: { resume: [{ type: "accept", args: null }] },
    });
    const next = await threadState(thread.thread_id);
    expect(next.next).toEqual(["reviewSolution"]);
    expect(next.values).toMatchObject({ researchStatus: "approved" });
    const moved = await inboxView(thread.thread_id);
    expect(moved.interrupts[0]?.refusal).toBeUndefined();
  });
});
