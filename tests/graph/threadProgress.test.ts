/**
 * threadProgress, the one judgement of where a thread is, on snapshots in the shapes LangGraph's
 * getState gives (written out here): a task in `next` with an interrupt waits; a task that wrote
 * its output is not in `next` and is work left (its writes wait to be applied), even with its
 * answered interrupt still among the writes; finished needs no task at all.
 */
import type { StateSnapshot } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import {
  describeProgress,
  type SnapshotParts,
  threadProgress,
  waitingInterrupts,
} from "../../src/graph/threadProgress.js";

type Task = StateSnapshot["tasks"][number];

function task(name: string, extra: Partial<Task> = {}): Task {
  return { id: `${name}-task`, name, interrupts: [], ...extra } as Task;
}

const AT = "2026-03-02T09:00:00.000Z";

function snapshot(
  next: string[],
  tasks: Task[],
  createdAt: string | undefined = AT,
): SnapshotParts {
  return createdAt === undefined ? { next, tasks } : { next, tasks, createdAt };
}

describe("threadProgress", () => {
  it("a thread without a checkpoint has not started", () => {
    expect(threadProgress({ next: [], tasks: [] })).toEqual({ kind: "not_started" });
  });

  it("no task at all is finished", () => {
    expect(threadProgress(snapshot([], []))).toEqual({ kind: "finished" });
  });

  it("a task in next waiting on an interrupt is paused, with the interrupt and its node", () => {
    const review = task("reviewBudget", {
      interrupts: [{ id: "i-77", value: { title: "Budget" } }],
    });
    expect(threadProgress(snapshot(["reviewBudget"], [review]))).toEqual({
      kind: "paused",
      interrupts: [{ id: "i-77", value: { title: "Budget" }, node: "reviewBudget" }],
    });
  });

  it("a task that wrote its output with next empty is work left, not finished", () => {
    const wrote = task("startEvaluateTimeline", { result: { sections: {} } });
    expect(threadProgress(snapshot([], [wrote]))).toEqual({
      kind: "work_left",
      nodes: ["startEvaluateTimeline"],
      errors: [],
    });
  });

  it("an interrupt whose task wrote its answer is not waited on: work left", () => {
    const answered = task("reviewMethodology", {
      interrupts: [{ id: "i-9", value: {} }],
      result: { isInterrupted: false },
    });
    const parts = snapshot([], [answered]);
    expect(waitingInterrupts(parts)).toEqual([]);
    expect(threadProgress(parts)).toEqual({
      kind: "work_left",
      nodes: ["reviewMethodology"],
      errors: [],
    });
  });

  it("a node to run, and a failed one with its error, are work left", () => {
    expect(threadProgress(snapshot(["generateSolution"], [task("generateSolution")]))).toEqual({
      kind: "work_left",
      nodes: ["generateSolution"],
      errors: [],
    });
    const failed = task("evaluateBudget", { error: new Error("judge unreachable") });
    expect(threadProgress(snapshot(["evaluateBudget"], [failed]))).toEqual({
      kind: "work_left",
      nodes: ["evaluateBudget"],
      errors: ["evaluateBudget: judge unreachable"],
    });
  });

  it("of two tasks of one node, the one still in next is the one without a result", () => {
    const done = task("reviewFanout", {
      id: "a",
      interrupts: [{ id: "old", value: 1 }],
      result: {},
    });
    const waiting = task("reviewFanout", { id: "b", interrupts: [{ id: "new", value: 2 }] });
    expect(waitingInterrupts(snapshot(["reviewFanout"], [done, waiting]))).toEqual([
      { id: "new", value: 2, node: "reviewFanout" },
    ]);
  });

  it("says where the thread is in words", () => {
    expect(describeProgress({ kind: "finished" })).toBe("the run has completed");
    expect(
      describeProgress({ kind: "work_left", nodes: ["evaluateBudget"], errors: ["x: y"] }),
    ).toBe("the run stopped with work left (judging Budget) after an error (x: y)");
  });
});
