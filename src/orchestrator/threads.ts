import type { BaseCheckpointSaver, Checkpoint } from "@langchain/langgraph";

/** A thread in the checkpointer, with its latest top-level checkpoint. */
export interface StoredThread {
  threadId: string;
  checkpoint: Checkpoint;
}

/**
 * Every thread the saver holds, each with its latest top-level checkpoint (subgraph checkpoints
 * are left out), most recently active first. It reads the saver's list over all threads, so it
 * works with any LangGraph checkpointer (SQLite, PostgreSQL, memory).
 */
export async function listThreads(saver: BaseCheckpointSaver): Promise<StoredThread[]> {
  const latest = new Map<string, Checkpoint>();
  for await (const tuple of saver.list({})) {
    const threadId: unknown = tuple.config.configurable?.thread_id;
    const namespace: unknown = tuple.config.configurable?.checkpoint_ns;
    if (typeof threadId !== "string" || threadId === "") continue;
    if (namespace !== undefined && namespace !== "") continue;
    const known = latest.get(threadId);
    // Checkpoint ids are time-ordered (UUID v6): the greatest is the newest.
    if (known === undefined || tuple.checkpoint.id > known.id)
      latest.set(threadId, tuple.checkpoint);
  }
  return [...latest]
    .map(([threadId, checkpoint]) => ({ threadId, checkpoint }))
    .sort((a, b) => b.checkpoint.id.localeCompare(a.checkpoint.id));
}

/**
 * The channels a checkpoint has that the graph lacks: not empty when the thread was made by
 * another graph sharing the checkpointer (the evaluation gate and the proposal graph both use
 * `.evalgate/checkpoints.sqlite` by default).
 */
export function foreignChannels(
  graphChannels: Readonly<Record<string, unknown>>,
  checkpoint: Checkpoint,
): string[] {
  return Object.keys(checkpoint.channel_versions).filter((name) => !(name in graphChannels));
}
