/**
 * Fault injection at the storage boundary, for the crash tests: the project's SQLite checkpoint
 * saver, subclassed so that the process "dies" at the Nth checkpoint write (`put` or `putWrites`,
 * counted together in the order the graph makes them). From that write on, nothing reaches the
 * file: that write and every later call of the saver never settle, as if the process had been
 * killed at that instant (a SIGKILL does not let anything after it happen either), and the model
 * stops answering too (see `deadResponder`). Writes issued before the Nth complete, as they would
 * have before a kill.
 *
 * `crashed` resolves once the Nth write was reached; a run that needs fewer writes never crashes.
 * The test then drops everything the dead "process" held and opens the file afresh, as a new
 * process would.
 */

import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import type { StageDefinition } from "../../src/graph/stages.js";
import type { OverallProposalStateType } from "../../src/graph/state.js";
import type { RecordedMessage } from "../doubles/index.js";

type PutArgs = Parameters<SqliteSaver["put"]>;
type PutWritesArgs = Parameters<SqliteSaver["putWrites"]>;
type GetTupleArgs = Parameters<SqliteSaver["getTuple"]>;
type ListArgs = Parameters<SqliteSaver["list"]>;

/** One checkpoint write as the saver sees it: a checkpoint, or a task's writes (and its node). */
export interface CheckpointWrite {
  kind: "put" | "putWrites";
  /** The node of the task whose writes these are (putWrites only). */
  node?: string;
}

/** Where to die: the n-th write (1-based; 0 never), or the first write a predicate picks. */
export type CrashPoint = number | ((write: CheckpointWrite, index: number) => boolean);

/**
 * Dies at the checkpoint that follows the writes of `node`: the state a process leaves when it
 * is killed after a node finished and before LangGraph saved the next checkpoint.
 */
export function putAfter(node: string): CrashPoint {
  let written = false;
  return (write) => {
    if (write.kind === "putWrites" && write.node === node) written = true;
    return write.kind === "put" && written;
  };
}

/** A promise that never settles: what a call into a dead process comes to. */
function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}

export class CrashingSaver extends SqliteSaver {
  /** Checkpoint writes (put and putWrites) seen so far, the one that crashed included. */
  writes = 0;
  dead = false;
  readonly crashed: Promise<void>;
  private markCrashed: () => void = () => undefined;
  private readonly connection: Database.Database;

  /** Dies at `crashAt`: the n-th write (1-based; 0 never), or the write a predicate picks. */
  constructor(
    readonly path: string,
    readonly crashAt: CrashPoint,
  ) {
    const connection = new Database(path);
    super(connection);
    this.connection = connection;
    this.crashed = new Promise((resolve) => {
      this.markCrashed = resolve;
    });
  }

  /** Counts the write; true when the process is dead from this write on. */
  private dies(write: CheckpointWrite): boolean {
    if (this.dead) return true;
    this.writes += 1;
    const { crashAt } = this;
    const now =
      typeof crashAt === "number"
        ? crashAt > 0 && this.writes >= crashAt
        : crashAt(write, this.writes);
    if (now) {
      this.dead = true;
      this.markCrashed();
      return true;
    }
    return false;
  }

  override put(...args: PutArgs) {
    return this.dies({ kind: "put" })
      ? never<Awaited<ReturnType<SqliteSaver["put"]>>>()
      : super.put(...args);
  }

  override putWrites(...args: PutWritesArgs) {
    // LangGraph passes the task's path (`~__pregel_pull, <node>`) after the task id.
    const path = (args as unknown[])[3];
    const node = typeof path === "string" ? path.split(", ").at(-1) : undefined;
    const write: CheckpointWrite =
      node === undefined ? { kind: "putWrites" } : { kind: "putWrites", node };
    return this.dies(write) ? never<void>() : super.putWrites(...args);
  }

  override getTuple(...args: GetTupleArgs) {
    return this.dead
      ? never<Awaited<ReturnType<SqliteSaver["getTuple"]>>>()
      : super.getTuple(...args);
  }

  override async *list(...args: ListArgs) {
    if (this.dead) await never<void>();
    yield* super.list(...args);
  }

  /** Closes the dead process's connection (nothing of it runs any more). */
  close(): void {
    if (this.connection.open) this.connection.close();
  }
}

/**
 * A responder that answers like `base` while the saver lives and never answers once it died: a
 * dead process makes no more model calls that return.
 */
export function deadResponder(
  saver: () => CrashingSaver | undefined,
  base: (messages: RecordedMessage[], callNumber: number) => string,
) {
  return (messages: RecordedMessage[], callNumber: number): string | Promise<string> =>
    saver()?.dead === true ? never<string>() : base(messages, callNumber);
}

/**
 * The dead process's thread locks go with it: a lock row names its holder's pid, and a new process
 * takes over a lock whose pid is gone. Here the "dead process" was this one, so its rows are
 * removed as the operating system's reaping would make them void.
 */
export function releaseDeadLocks(path: string): void {
  const db = new Database(path);
  try {
    const table = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'thread_locks'")
      .get();
    if (table !== undefined) db.prepare("DELETE FROM thread_locks").run();
  } finally {
    db.close();
  }
}

/** What must be the same after any crash: statuses, content and scores per stage, the reviews. */
export function proposalEndState(
  values: OverallProposalStateType,
  stages: readonly StageDefinition[],
) {
  const at = (path: string): unknown =>
    path.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown>)?.[key], values);
  return {
    stages: stages.map((stage) => ({
      id: stage.id,
      status: at(stage.statusField),
      content: at(stage.contentPath),
      score: (at(stage.resultField) as { overallScore?: number } | undefined)?.overallScore,
    })),
    reviews: values.reviewHistory.map((d) => `${d.contentId}:${d.action}`),
  };
}
