/**
 * Where a thread is, read from its latest checkpoint the way LangGraph will run it: the one
 * judgement every report of a thread's state goes through. A task's writes wait beside the
 * checkpoint until every task of the step has written, so a process that dies in between leaves
 * `next` empty with work left, and an interrupt whose task wrote output is answered, not waited on.
 * Paused: a task in `next` waits on an interrupt; finished: no task at all; else work left.
 */
import type { StateSnapshot } from "@langchain/langgraph";
import { LOAD_RFP_NODE, loadProposalConfig } from "./proposalConfig.js";
import { CONNECTION_PAIRS_STAGE, RESEARCH_STAGE, SOLUTION_STAGE } from "./stages.js";

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

/**
 * The words a user reads for the proposal graph's stages and steps: a stage's title, a finished
 * step ("Solution Sought written") and the step a stopped run has left to do ("writing Solution
 * Sought"). A node no table knows (a user's own graph) is shown as words, never bare.
 */
let stageTitles: Readonly<Record<string, string>> | undefined;

/** The three inputs' titles, then the shipped sections' (config/proposal.json). */
function knownStageTitles(): Readonly<Record<string, string>> {
  stageTitles ??= Object.fromEntries(
    [RESEARCH_STAGE, SOLUTION_STAGE, CONNECTION_PAIRS_STAGE, ...loadProposalConfig()].map((s) => [
      s.id,
      s.title,
    ]),
  );
  return stageTitles;
}

/** `problem_statement`, `ProblemStatement`, `problem-statement` → `problem statement`. */
export function wordsOf(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.:]+/g, " ")
    .trim()
    .toLowerCase();
}

export function capitalised(text: string): string {
  return text === "" ? text : `${text[0]?.toUpperCase()}${text.slice(1)}`;
}

/** A stage's title ("connection_pairs" → "Connection Pairs"); an unknown id in the same title case. */
export function stageName(stage: string): string {
  return knownStageTitles()[stage] ?? wordsOf(stage).split(" ").map(capitalised).join(" ");
}

type StepWords = (stage: string) => string;

/** The graph's step prefixes, longest first: what a finished step did, and what one left does. */
const STEPS: ReadonlyArray<[string, { done: StepWords; toDo: StepWords }]> = [
  ["startEvaluate", { done: (s) => `Judging ${s}`, toDo: (s) => `judging ${s}` }],
  ["generate", { done: (s) => `${s} written`, toDo: (s) => `writing ${s}` }],
  ["evaluate", { done: (s) => `${s} judged`, toDo: (s) => `judging ${s}` }],
  ["review", { done: (s) => `decision on ${s} applied`, toDo: (s) => `the review of ${s}` }],
];

function stepWords(node: string, which: "done" | "toDo"): string {
  if (node === LOAD_RFP_NODE) {
    return which === "done" ? "request for proposals read" : "reading the request for proposals";
  }
  for (const [prefix, words] of STEPS) {
    const rest = node.slice(prefix.length);
    // `ConnectionPairs` → the stage id `connection_pairs`.
    if (node.startsWith(prefix) && /^[A-Z]/.test(rest)) {
      return words[which](stageName(wordsOf(rest).replaceAll(" ", "_")));
    }
  }
  return wordsOf(node);
}

/** A finished step of the graph in words ("startEvaluateSolution" → "Judging Solution Sought"). */
export function stepName(node: string): string {
  return stepWords(node, "done");
}

/** The steps a stopped run has left, in words ("generateSolution" → "writing Solution Sought"). */
export function stepsLeft(nodes: readonly string[]): string {
  return [...new Set(nodes.map((node) => stepWords(node, "toDo")))].join(", ");
}
