/**
 * Checkpoint retention: a finished thread needs only its last checkpoint — it holds the whole
 * state, the history of reviewer decisions (`reviewHistory`) and every stage's result — so the
 * superseded checkpoints (and their writes) before it can go. Traces stay in the trace store and
 * decisions in the review store. Paused and running threads are never pruned.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { z } from "zod";
import { PROPOSAL_RECURSION_LIMIT } from "../graph/proposalGraph.js";
import type { EvaluationContext } from "../graph/state.js";

/** `all` keeps every checkpoint; `latest` prunes a finished thread down to its last one. */
export const CheckpointRetentionSchema = z.enum(["all", "latest"]);
export type CheckpointRetention = z.infer<typeof CheckpointRetentionSchema>;

/** The retention EVALGATE_CHECKPOINT_RETENTION names (`all` when unset or unknown). */
export function retentionFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): CheckpointRetention {
  const parsed = CheckpointRetentionSchema.safeParse(
    env.EVALGATE_CHECKPOINT_RETENTION?.trim().toLowerCase(),
  );
  return parsed.success ? parsed.data : "all";
}

interface SqliteLike {
  prepare(sql: string): { run(...args: unknown[]): { changes: number } };
  transaction<T>(work: () => T): () => T;
}
interface PoolLike {
  query(sql: string, values: unknown[]): Promise<{ rowCount: number | null }>;
}

const SQLITE_KEEP_LATEST = [
  `DELETE FROM writes WHERE thread_id = ? AND checkpoint_id NOT IN (
     SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = ? GROUP BY checkpoint_ns)`,
  `DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id NOT IN (
     SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = ? GROUP BY checkpoint_ns)`,
];
const POSTGRES_KEEP_LATEST = [
  `DELETE FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_id NOT IN (
     SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = $1 GROUP BY checkpoint_ns)`,
  `DELETE FROM checkpoints WHERE thread_id = $1 AND checkpoint_id NOT IN (
     SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = $1 GROUP BY checkpoint_ns)`,
];

/**
 * Prunes a finished thread's superseded checkpoints on a SQLite or PostgreSQL saver; returns how
 * many rows went (0 for a saver without a database). Call it only for a finished thread.
 */
export async function pruneFinishedThread(
  saver: BaseCheckpointSaver,
  threadId: string,
): Promise<number> {
  const { db, pool } = saver as unknown as { db?: SqliteLike; pool?: PoolLike };
  if (db !== undefined && typeof db.prepare === "function") {
    return db.transaction(() =>
      SQLITE_KEEP_LATEST.reduce((n, sql) => n + db.prepare(sql).run(threadId, threadId).changes, 0),
    )();
  }
  if (pool !== undefined && typeof pool.query === "function") {
    let removed = 0;
    for (const sql of POSTGRES_KEEP_LATEST) {
      removed += (await pool.query(sql, [threadId])).rowCount ?? 0;
    }
    return removed;
  }
  return 0;
}

/** How an orchestrator runs threads: the config of a run, and what it does when one finishes. */
export interface RunPolicy {
  /** `configurable.thread_id` (and `overrideSettings` when set) and the run context. */
  config(threadId: string): {
    configurable: Record<string, unknown>;
    context?: unknown;
    recursionLimit: number;
  };
  /** Prunes the finished thread when the retention says so; returns the outcome as given. */
  finished<T extends { threadId: string }>(saver: BaseCheckpointSaver, outcome: T): Promise<T>;
}

export function runPolicy(options: {
  context?: EvaluationContext;
  overrideSettings?: boolean;
  retention?: CheckpointRetention;
}): RunPolicy {
  const retention = options.retention ?? retentionFromEnv();
  const override = options.overrideSettings === true ? { overrideSettings: true } : {};
  const { context } = options;
  return {
    config(threadId) {
      const configurable = { thread_id: threadId, ...override };
      const recursionLimit = PROPOSAL_RECURSION_LIMIT;
      return context === undefined
        ? { configurable, recursionLimit }
        : { configurable, context, recursionLimit };
    },
    async finished(saver, outcome) {
      if (retention === "latest") await pruneFinishedThread(saver, outcome.threadId);
      return outcome;
    },
  };
}
