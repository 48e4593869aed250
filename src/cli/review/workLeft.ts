/**
 * The threads `reviews` lists beside the pending reviews: work left and nothing running them.
 * Nothing is changed.
 */
import { buildProposalGraph, loadProposalConfig } from "../../graph/proposalGraph.js";
import { threadProgress } from "../../graph/threadProgress.js";
import { createCheckpointer } from "../../orchestrator/checkpointer.js";
import type { ReviewStore } from "../../store/reviewStore.js";
import type { ThreadRow } from "../../store/types.js";
import { type CheckpointStore, storeConnection } from "./store.js";

/** Most threads looked at (each costs a checkpoint read). */
const MAX_LOOKED_AT = 200;

export interface WorkLeftThread {
  threadId: string;
  title: string;
  /**
   * `running`: a process holds it; `queued`: waiting for the service's job (or `run --thread`);
   * `stopped`: nothing runs it (go on with `run --thread`).
   */
  state: "stopped" | "queued" | "running";
  /** The nodes with work left; empty when it stopped before its first checkpoint. */
  nodes: string[];
}

export interface FailedThread {
  threadId: string;
  title: string;
  /** Why it failed, as the thread engine recorded it. */
  error: string;
  failedAt: string;
}

/** The failed threads of the store (a retry runs them again), the latest first. */
export async function failedThreads(index: ReviewStore): Promise<FailedThread[]> {
  const rows = await index.listThreads({ status: "failed", limit: MAX_LOOKED_AT });
  return Promise.all(
    rows.map(async (row) => ({
      threadId: row.id,
      title: row.title,
      error: (await index.thread(row.id))?.error ?? "",
      failedAt: row.updatedAt,
    })),
  );
}

/** Where a thread with work left stands: held by a process, waiting for a job, or stopped. */
async function stateOf(index: ReviewStore, thread: ThreadRow | undefined, threadId: string) {
  if (await index.threadLocked(threadId)) return "running";
  return thread?.status === "queued" ? "queued" : "stopped";
}

/** The threads a job would take up, and the ones whose run was stopped (nothing takes those up). */
async function candidatesOf(index: ReviewStore): Promise<string[]> {
  const soon = new Date(Date.now() + 60_000).toISOString();
  const stopped = await index.listThreads({ status: "stopped", limit: MAX_LOOKED_AT });
  const ids = new Set([...(await index.threadsNeedingWork(soon)), ...stopped.map((t) => t.id)]);
  return [...ids].slice(0, MAX_LOOKED_AT);
}

/** The threads of the store with work left and no review, as their checkpoints say. */
export async function threadsWithWorkLeft(
  index: ReviewStore,
  where: CheckpointStore,
  env: Readonly<Record<string, string | undefined>>,
): Promise<WorkLeftThread[]> {
  const candidates = await candidatesOf(index);
  if (candidates.length === 0) return [];
  const checkpointer = await createCheckpointer({ ...storeConnection(where), env });
  try {
    const graph = buildProposalGraph({ sections: loadProposalConfig() }).compile({
      checkpointer: checkpointer.saver,
    });
    const found: WorkLeftThread[] = [];
    for (const threadId of candidates) {
      const progress = threadProgress(
        await graph.getState({ configurable: { thread_id: threadId } }),
      );
      if (progress.kind !== "work_left" && progress.kind !== "not_started") continue;
      const thread = await index.thread(threadId);
      found.push({
        threadId,
        title: thread?.title ?? threadId,
        state: await stateOf(index, thread, threadId),
        nodes: progress.kind === "work_left" ? progress.nodes : [],
      });
    }
    return found;
  } finally {
    await checkpointer.close();
  }
}
