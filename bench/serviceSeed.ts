/**
 * Seeds the review desk for bench/service.ts and bench/state.ts: threads really run to their
 * first review, then one such thread's checkpoints (the run's history and the paused one, with the
 * pending review interrupt) copied to many threads, each with its row in the pending-review index — what the job writes
 * when a thread pauses — and its evaluation's traces in the trace store under an evaluation id of
 * its own (the copy's result and review refer to that id).
 */
import { randomUUID } from "node:crypto";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, Checkpoint, CheckpointTuple } from "@langchain/langgraph";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import type { ReviewDeskHandle } from "../src/desk/createReviewDesk.js";
import { sinksOfSaver } from "../src/graph/runSinks.js";
import type { Trace } from "../src/scoring/result.js";
import type { Reviewer } from "../src/store/reviewers.js";
import type { PendingRow } from "../src/store/types.js";

export interface Template {
  threadId: string;
  interruptId: string;
  row: PendingRow;
  tuple: CheckpointTuple;
  /** The checkpoints before the paused one (the run's history), oldest first. */
  history: CheckpointTuple[];
  /** The paused evaluation's id in the trace store, and its traces (none when kept inline). */
  evaluationId: string | undefined;
  traces: Trace[];
}

const RFP = "Calder Bay Community Foundation — Resilient Neighbourhoods 2026.\nFlood resilience.";

/** A new thread (started by `by`) run by the desk until it pauses or ends; its id. */
export async function runThread(desk: ReviewDeskHandle, by: Reviewer, rfpDocument = RFP) {
  const threadId = randomUUID();
  await desk.store.createThread(
    {
      id: threadId,
      title: "Bench thread",
      creator: by.name,
      status: "queued",
      settings: { input: { rfpDocument } },
    },
    { type: "queued" },
  );
  const outcome = await desk.advanceThread(threadId);
  return { threadId, outcome };
}

export async function templateThread(
  desk: ReviewDeskHandle,
  saver: BaseCheckpointSaver,
  by: Reviewer,
  rfpDocument = RFP,
): Promise<Template> {
  const { threadId, outcome } = await runThread(desk, by, rfpDocument);
  const [row] = await desk.store.pendingOf(threadId);
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
  if (outcome !== "waiting" || row === undefined || tuple === undefined) {
    throw new Error(`the template thread did not pause at a review (${outcome})`);
  }
  const history: CheckpointTuple[] = [];
  for await (const earlier of saver.list({
    configurable: { thread_id: threadId, checkpoint_ns: "" },
  })) {
    if (earlier.checkpoint.id !== tuple.checkpoint.id) history.unshift(earlier);
  }
  const values = tuple.checkpoint.channel_values as Record<string, { evaluationId?: string }>;
  const evaluationId = values.researchEvaluation?.evaluationId;
  const store = sinksOfSaver(saver).traces;
  const traces =
    evaluationId === undefined || store === undefined
      ? []
      : await store.getTraces({ evaluationId });
  return { threadId, interruptId: row.interruptId, row, tuple, history, evaluationId, traces };
}

/** The value with every string equal to `from` replaced by `to` (class instances kept as they are). */
function withId<T>(value: T, from: string, to: string): T {
  if (value === from) return to as T;
  if (Array.isArray(value)) return value.map((item) => withId(item, from, to)) as T;
  if (typeof value !== "object" || value === null) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, withId(item, from, to)]),
  ) as T;
}

/** The template's checkpoint and interrupt writes under a fresh evaluation id. */
function copyOf(template: Template, evaluationId: string) {
  const from = template.evaluationId;
  const rename = <T>(value: T): T =>
    from === undefined ? value : withId(value, from, evaluationId);
  const byTask = new Map<string, PendingWrite[]>();
  for (const [taskId, channel, value] of template.tuple.pendingWrites ?? []) {
    byTask.set(taskId, [...(byTask.get(taskId) ?? []), [channel, rename(value)]]);
  }
  const checkpoint = {
    ...template.tuple.checkpoint,
    channel_values: rename(template.tuple.checkpoint.channel_values),
  };
  return { checkpoint, byTask };
}

const NO_METADATA = { source: "loop" as const, step: 0, parents: {} };

/** The channels whose version changed since the previous checkpoint (what a saver writes anew). */
function changedVersions(previous: Checkpoint | undefined, next: Checkpoint) {
  return Object.fromEntries(
    Object.entries(next.channel_versions).filter(
      ([channel, version]) => previous?.channel_versions[channel] !== version,
    ),
  );
}

/**
 * `count` new threads paused at the template's review, newest last: each with the template's
 * checkpoints (its history, then the paused one with the review interrupt).
 */
export async function seedPendingThreads(
  desk: ReviewDeskHandle,
  saver: BaseCheckpointSaver,
  template: Template,
  count: number,
): Promise<string[]> {
  const { tuple } = template;
  const traceStore = sinksOfSaver(saver).traces;
  const base = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const threadId = randomUUID();
    const evaluationId = randomUUID();
    const { checkpoint, byTask } = copyOf(template, evaluationId);
    await desk.store.createThread(
      {
        id: threadId,
        title: `Proposal ${i}`,
        creator: "bench-admin",
        status: "waiting",
        settings: {},
      },
      { type: "review_ready" },
    );
    let parent: RunnableConfig = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
    let previous: Checkpoint | undefined;
    const steps = [
      ...template.history.map((t) => ({ checkpoint: t.checkpoint, metadata: t.metadata })),
      { checkpoint, metadata: tuple.metadata },
    ];
    for (const step of steps) {
      const versions = changedVersions(previous, step.checkpoint);
      parent = await saver.put(parent, step.checkpoint, step.metadata ?? NO_METADATA, versions);
      previous = step.checkpoint;
    }
    const config = parent;
    for (const [taskId, writes] of byTask) await saver.putWrites(config, writes, taskId);
    if (traceStore !== undefined && template.traces.length > 0) {
      const traces = template.traces.map((trace) => ({ ...trace, id: randomUUID() }));
      await traceStore.saveTraces({ evaluationId, threadId }, traces);
    }
    await desk.store.settleThread(threadId, {
      status: "waiting",
      pending: [
        {
          ...template.row,
          threadId,
          title: `Proposal ${i}: ${template.row.title}`,
          createdAt: new Date(base + i).toISOString(),
        },
      ],
      applied: [],
      events: [],
    });
    ids.push(threadId);
  }
  return ids;
}
