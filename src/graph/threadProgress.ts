/**
 * Where a thread is, read from its latest checkpoint the way LangGraph will run it: the one
 * judgement every report of a thread's state goes through (the orchestrator, the review desk and
 * its jobs, the recovery at start-up, the service's thread status, the CLI's `run --thread`,
 * `reviews` and `review`).
 *
 * LangGraph's StateSnapshot has three parts that matter. `tasks` are the tasks of the step after
 * the latest checkpoint, each with the pending writes LangGraph keeps for it beside that
 * checkpoint (its `interrupts`, its `error`, its `result`); `next` names the tasks among them that
 * have no writes yet. A task that finished writes its output as pending writes, and only when
 * every task of the step has written does LangGraph apply them and save the next checkpoint. A
 * process that dies in between leaves `next` empty while a task's writes wait to be applied:
 * such a thread is not finished, and `graph.invoke(null, config)` applies the writes and runs on.
 * Likewise an interrupt whose task has written its output (the reviewer's answer was taken, the
 * next checkpoint was not saved) is answered, not waited on.
 *
 * So: paused when a task still to run (in `next`) waits on an interrupt; finished only when there
 * is no task at all (no node to run, no writes to apply, no interrupt); anything else is work left.
 */
import type { StateSnapshot } from "@langchain/langgraph";

/** An interrupt a thread waits on: its id, what it asked (the review metadata), and the node. */
export interface WaitingInterrupt {
  id: string;
  value: unknown;
  node: string;
}

/** Where a thread is. */
export type ThreadProgress =
  /** No checkpoint: the thread never ran (or died before its first checkpoint was saved). */
  | { kind: "not_started" }
  /** Waiting on interrupts (reviews, or other interrupts of a graph); resume with a Command. */
  | { kind: "paused"; interrupts: WaitingInterrupt[] }
  /**
   * Nodes left to run, or a node's writes left to apply (a process died mid-run, or a node
   * failed: `errors`); `invoke(null, config)` runs on from the latest checkpoint.
   */
  | { kind: "work_left"; nodes: string[]; errors: string[] }
  /** Nothing to run, nothing to apply, nothing waited on. */
  | { kind: "finished" };

/** The parts of a StateSnapshot the judgement reads. */
export type SnapshotParts = Pick<StateSnapshot, "next" | "tasks" | "createdAt">;

/**
 * The tasks still to run: those `next` names. With two tasks of one name (a fan-out), the one
 * still to run is taken to be one without a result (a task that wrote its output has one).
 */
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

/** The interrupts the thread waits on: those of tasks still to run (answered ones left out). */
export function waitingInterrupts(snapshot: SnapshotParts): WaitingInterrupt[] {
  return tasksToRun(snapshot).flatMap((task) =>
    task.interrupts.flatMap((entry) =>
      entry.id === undefined
        ? []
        : [{ id: entry.id, value: entry.value as unknown, node: task.name }],
    ),
  );
}

/** The errors the snapshot's tasks failed with, as `<node>: <message>`. */
export function taskErrors(snapshot: Pick<StateSnapshot, "tasks">): string[] {
  return snapshot.tasks.flatMap((task) => {
    const error: unknown = task.error;
    if (error === undefined || error === null) return [];
    if (error instanceof Error) return [`${task.name}: ${error.message}`];
    if (typeof error === "object" && "message" in error && typeof error.message === "string") {
      return [`${task.name}: ${error.message}`];
    }
    return [`${task.name}: ${String(error)}`];
  });
}

/** Where the thread is (see the module's comment for how it is read). */
export function threadProgress(snapshot: SnapshotParts): ThreadProgress {
  if (snapshot.createdAt === undefined) return { kind: "not_started" };
  const interrupts = waitingInterrupts(snapshot);
  const waiting = tasksToRun(snapshot).some((task) => task.interrupts.length > 0);
  if (waiting) return { kind: "paused", interrupts };
  if (snapshot.tasks.length === 0 && snapshot.next.length === 0) return { kind: "finished" };
  const nodes = [...new Set([...snapshot.next, ...snapshot.tasks.map((task) => task.name)])];
  return { kind: "work_left", nodes, errors: taskErrors(snapshot) };
}

/** The judgement in words, for messages: "finished", "paused at …", "work left at …". */
export function describeProgress(progress: ThreadProgress): string {
  switch (progress.kind) {
    case "not_started":
      return "it has not started (no checkpoint)";
    case "paused":
      return `it is paused at ${progress.interrupts.map((i) => i.node).join(", ") || "an interrupt"}`;
    case "finished":
      return "the run has completed";
    case "work_left": {
      const errors =
        progress.errors.length === 0 ? "" : ` after an error (${progress.errors.join("; ")})`;
      return `the run stopped with work left at ${progress.nodes.join(", ")}${errors}`;
    }
  }
}
