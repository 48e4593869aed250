/**
 * Seeds the review desk for bench/service.ts: one thread really run to its first review, then its
 * checkpoint (with the pending review interrupt) copied to many threads, each with its row in the
 * pending-review index — what the job writes when a thread pauses.
 */
import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import type { ReviewDeskHandle } from "../src/orchestrator/createReviewDesk.js";
import type { Reviewer } from "../src/orchestrator/reviewDesk.js";
import type { PendingRow } from "../src/store/types.js";

export interface Template {
  threadId: string;
  interruptId: string;
  row: PendingRow;
  tuple: CheckpointTuple;
}

const RFP = "Calder Bay Community Foundation — Resilient Neighbourhoods 2026.\nFlood resilience.";

export async function templateThread(
  desk: ReviewDeskHandle,
  saver: BaseCheckpointSaver,
  by: Reviewer,
): Promise<Template> {
  const threadId = randomUUID();
  await desk.store.createThread(
    {
      id: threadId,
      title: "Bench template",
      creator: by.name,
      status: "queued",
      settings: { input: { rfpDocument: RFP } },
    },
    { type: "queued" },
  );
  const outcome = await desk.advanceThread(threadId);
  const [row] = await desk.store.pendingOf(threadId);
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
  if (outcome !== "waiting" || row === undefined || tuple === undefined) {
    throw new Error(`the template thread did not pause at a review (${outcome})`);
  }
  return { threadId, interruptId: row.interruptId, row, tuple };
}

/** `count` new threads paused at the template's review, newest last. */
export async function seedPendingThreads(
  desk: ReviewDeskHandle,
  saver: BaseCheckpointSaver,
  template: Template,
  count: number,
): Promise<string[]> {
  const { tuple } = template;
  const byTask = new Map<string, PendingWrite[]>();
  for (const [taskId, channel, value] of tuple.pendingWrites ?? []) {
    byTask.set(taskId, [...(byTask.get(taskId) ?? []), [channel, value]]);
  }
  const base = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const threadId = randomUUID();
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
    const config = await saver.put(
      { configurable: { thread_id: threadId, checkpoint_ns: "" } },
      tuple.checkpoint,
      tuple.metadata ?? { source: "loop", step: 0, parents: {} },
      tuple.checkpoint.channel_versions,
    );
    for (const [taskId, writes] of byTask) await saver.putWrites(config, writes, taskId);
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
