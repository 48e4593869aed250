/**
 * What the index says of a thread whose run this desk's process cut short by stopping: under
 * `serve` its job goes back to the queue (`queued`); where the desk runs no jobs (the CLI advancing
 * a thread itself) nothing goes on with it until someone does (`stopped`).
 */
import type { AfterStop } from "../orchestrator/threadRun.js";

export interface AfterStopOptions {
  stopping?: AbortSignal | undefined;
  /** Whether this desk runs the jobs (default true). */
  runsJobs: boolean;
  kind: "sqlite" | "postgres";
  /** The command that goes on with a stopped thread, as the user runs it. */
  goOnWith?: ((threadId: string) => string) | undefined;
}

/**
 * SQLite: the in-process queue stops with the service and the next start queues every thread left
 * `queued`. PostgreSQL: the job is failed for a retry another replica takes, and the recovery sweep
 * of any replica (or the next start) runs a queued thread no job holds.
 */
const BACK_ON_THE_QUEUE = {
  sqlite:
    "the service stopped during this run; it goes on from its last finished step when the service starts again",
  postgres:
    "the service stopped during this run; another replica, or the next start, goes on from its last finished step",
} as const;

export function afterStopOf(options: AfterStopOptions): AfterStop | undefined {
  if (options.stopping === undefined) return undefined;
  if (options.runsJobs) {
    const message = BACK_ON_THE_QUEUE[options.kind];
    return { status: "queued", message: () => message };
  }
  const { goOnWith } = options;
  return {
    status: "stopped",
    message: (threadId) =>
      goOnWith === undefined
        ? "the process running it was stopped; retry the thread to go on from its last finished step"
        : `the command running it was stopped; go on with: ${goOnWith(threadId)}`,
  };
}
