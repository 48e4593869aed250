import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { DecisionRecord } from "../../src/graph/model.js";
import {
  appendUniqueErrors,
  mergeSections,
  OverallProposalState,
  type ProposalUpdate,
} from "../../src/graph/state.js";
import { mergeStateUpdates } from "../../src/graph/statePath.js";

const decision = (contentId: string): DecisionRecord => ({
  contentId,
  contentType: contentId,
  action: "approve",
  decidedAt: "2025-03-01T10:00:00.000Z",
  evaluation: null,
  staled: [],
});

/** Two nodes writing the same fields one after the other, through OverallProposalState's reducers. */
async function runTwoWrites(first: ProposalUpdate, second: ProposalUpdate, initial: object = {}) {
  const graph = new StateGraph(OverallProposalState)
    .addNode("first", () => first)
    .addNode("second", () => second)
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer: new MemorySaver() });
  return graph.invoke(initial, { configurable: { thread_id: "reducers" } });
}

describe("OverallProposalState reducers", () => {
  it("messages append (and a message with the same id replaces it)", async () => {
    const state = await runTwoWrites(
      { messages: [new AIMessage({ content: "Research written.", id: "m1" })] },
      {
        messages: [
          new AIMessage({ content: "Research evaluated: 85%.", id: "m2" }),
          new AIMessage({ content: "Research written (v2).", id: "m1" }),
        ],
      },
      { messages: [new HumanMessage({ content: "Start.", id: "m0" })] },
    );
    expect(state.messages.map((m) => [m.id, m.text])).toEqual([
      ["m0", "Start."],
      ["m1", "Research written (v2)."],
      ["m2", "Research evaluated: 85%."],
    ]);
  });

  it("errors append without duplicates, in first-seen order", async () => {
    const state = await runTwoWrites(
      { errors: ["[evaluate research] model error (timeout): A"] },
      {
        errors: [
          "[evaluate research] model error (timeout): A",
          "[evaluate solution] criteria catalog error: B",
          "[evaluate solution] criteria catalog error: B",
        ],
      },
      { errors: ["[load RFP] C"] },
    );
    expect(state.errors).toEqual([
      "[load RFP] C",
      "[evaluate research] model error (timeout): A",
      "[evaluate solution] criteria catalog error: B",
    ]);
    // The reducer itself: a lone string, an existing entry, and an unchanged list kept as is.
    const current = ["a"];
    expect(appendUniqueErrors(current, "b")).toEqual(["a", "b"]);
    expect(appendUniqueErrors(current, ["a"])).toBe(current);
    expect(appendUniqueErrors([], ["x", "x", "y"])).toEqual(["x", "y"]);
  });

  it("sections merge by id: a patch changes only the fields it gives", async () => {
    const state = await runTwoWrites(
      { sections: { budget: { content: "Total $240,000.", title: "Budget" } } },
      {
        sections: {
          budget: { status: "approved" },
          timeline: { content: "Months 1–24.", status: "completed" },
        },
      },
      { sections: { budget: { id: "budget", status: "running" } } },
    );
    expect(state.sections).toEqual({
      budget: { id: "budget", title: "Budget", content: "Total $240,000.", status: "approved" },
      timeline: { id: "timeline", content: "Months 1–24.", status: "completed" },
    });
    // The id always comes from the key.
    expect(mergeSections({}, { conclusion: { id: "other", content: "x" } })).toEqual({
      conclusion: { id: "conclusion", status: "not_started", content: "x" },
    });
  });

  it("review history appends; revision counts and feedback merge per stage", async () => {
    const state = await runTwoWrites(
      {
        reviewHistory: [decision("research")],
        revisionCounts: { research: 1 },
        revisionFeedback: { research: "Cite the RFP." },
      },
      {
        reviewHistory: [decision("solution")],
        revisionCounts: { solution: 1 },
        revisionFeedback: { solution: "Name the outcomes." },
      },
    );
    expect(state.reviewHistory.map((r) => r.contentId)).toEqual(["research", "solution"]);
    expect(state.revisionCounts).toEqual({ research: 1, solution: 1 });
    expect(state.revisionFeedback).toEqual({
      research: "Cite the RFP.",
      solution: "Name the outcomes.",
    });
  });

  it("mergeStateUpdates combines node updates the way the reducers expect", () => {
    const merged = mergeStateUpdates(
      { sections: { budget: { status: "awaiting_review" } }, errors: ["e1"], isInterrupted: true },
      { sections: { budget: { evaluation: null }, timeline: { status: "stale" } }, errors: ["e2"] },
      { messages: [new AIMessage("done")], isInterrupted: false },
    );
    expect(merged.sections).toEqual({
      budget: { status: "awaiting_review", evaluation: null },
      timeline: { status: "stale" },
    });
    expect(merged.errors).toEqual(["e1", "e2"]);
    expect(merged.isInterrupted).toBe(false);
    expect(merged.messages).toHaveLength(1);
  });
});
