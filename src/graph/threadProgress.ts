/**
 * Where a thread is, read from its latest checkpoint the way LangGraph will run it: the one
 * judgement every report of a thread's state goes through. A task's writes wait beside the
 * checkpoint until every task of the step has written, so a process that dies in between leaves
 * `next` empty with work left, and an interrupt whose task wrote output is answered, not waited on.
 * Paused: a task in `next` waits on an interrupt; finished: no task at all; else work left.
 */
import type { StateSnapshot } from "@langchain/langgraph";
import { stepsLeft } from "./stepWords.js";

/** An interrupt a thread waits on: its id, what it asked (the review metadata), and the node. */
export interface WaitingInterrupt {
  id: string;
  value: unknown;
  node: string;
}

export type ThreadProgress =
  /** No checkpoint: the thread never ran, or died before its first checkpoint. */
  | { kind: "not_started" }
  /** Waiting on interrupts (reviews, or other interrupts of a graph); resume with a Command. */
  | { kind: "paused"; interrupts: WaitingInterrupt[] }
  /** Nodes left to run or writes left to apply; `invoke(null, config)` runs on. */
  | { kind: "work_left"; nodes: string[]; errors: string[] }
  | { kind: "finished" };

export type SnapshotParts = Pick<StateSnapshot, "next" | "tasks" | "createdAt">;

/** The tasks `next` names; of two with one name (a fan-out), one without a result is still to run. */
function tasksToRun(snapshot: SnapshotParts): SnapshotParts["tasks"] {
  const left = new Map<string, number>();
  for (const name of snapshot.next) left.set(name, (left.get(name) ?? 0) + 1);
  const ordered = [...snapshot.tasks].sort(
    (a, b) => Number(a.result !== undefined) - Number(b.result !== undefined),
  );
  return ordered.filter((task) => {
    const count = left.get(task.name) ?? 0;
    if (count === 0) return false;
    left.set(task.name, count - 1);
    return true;
  });
}

export function waitingInterrupts(snapshot: SnapshotParts): WaitingInterrupt[] {
  return tasksToRun(snapshot).flatMap((task) =>
    task.interrupts.flatMap((entry) =>
      entry.id === undefined
        ? []
        : [{ id: entry.id, value: entry.value as unknown, node: task.name }],
    ),
  );
}

function taskErrors(snapshot: Pick<StateSnapshot, "tasks">): string[] {
  return snapshot.tasks.flatMap((task) => {
    const error: unknown = task.error;
    if (error === undefined || error === null) return [];
    if (typeof error === "object" && "message" in error && typeof error.message === "string") {
      return [`${task.name}: ${error.message}`];
    }
    return [`${task.name}: ${String(error)}`];
  });
}

export function threadProgress(snapshot: SnapshotParts): ThreadProgress {
  if (snapshot.createdAt === undefined) return { kind: "not_started" };
  const interrupts = waitingInterrupts(snapshot);
  const waiting = tasksToRun(snapshot).some((task) => task.interrupts.length > 0);
  if (waiting) return { kind: "paused", interrupts };
  if (snapshot.tasks.length === 0 && snapshot.next.length === 0) return { kind: "finished" };
  const nodes = [...new Set([...snapshot.next, ...snapshot.tasks.map((task) => task.name)])];
  return { kind: "work_left", nodes, errors: taskErrors(snapshot) };
}

export function describeProgress(progress: ThreadProgress): string {
  switch (progress.kind) {
    case "not_started":
      return "it has not started (no checkpoint)";
    case "paused":
      return `it is paused at ${stepsLeft(progress.interrupts.map((i) => i.node)) || "an interrupt"}`;
    case "finished":
      return "the run has completed";
    case "work_left": {
      const errors =
        progress.errors.length === 0 ? "" : ` after an error (${progress.errors.join("; ")})`;
      return `the run stopped with work left (${stepsLeft(progress.nodes)})${errors}`;
    }
  }
}
