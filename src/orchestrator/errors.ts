/** Something the review orchestrator refused or could not do, on one thread. */
export class OrchestratorError extends Error {
  override readonly name: string = "OrchestratorError";
  readonly threadId: string;

  constructor(threadId: string, message: string, options?: { cause?: unknown }) {
    super(`thread "${threadId}": ${message}`, options);
    this.threadId = threadId;
  }
}

/** The checkpointer holds no state for the thread. */
export class ThreadNotFoundError extends OrchestratorError {
  override readonly name = "ThreadNotFoundError";

  constructor(threadId: string) {
    super(threadId, "no such thread in the checkpointer");
  }
}

/** `start` was given the id of a thread that already has state. */
export class ThreadExistsError extends OrchestratorError {
  override readonly name = "ThreadExistsError";

  constructor(threadId: string) {
    super(
      threadId,
      "the thread already exists; resume it with submitDecision or start with another id",
    );
  }
}

/** The thread was made by another graph that shares the checkpointer: this one cannot resume it. */
export class ForeignThreadError extends OrchestratorError {
  override readonly name = "ForeignThreadError";
  /** Channels of the thread's checkpoint this orchestrator's graph does not have. */
  readonly channels: readonly string[];

  constructor(threadId: string, channels: readonly string[]) {
    const shown = channels.slice(0, 5).join(", ");
    const more = channels.length > 5 ? `, … (${channels.length} in all)` : "";
    super(
      threadId,
      `the thread belongs to another graph (its state has ${shown}${more}, which this graph lacks); open it with the graph that started it`,
    );
    this.channels = channels;
  }
}

/** A thread id that cannot name a thread (empty or blank). */
export class InvalidThreadIdError extends OrchestratorError {
  override readonly name = "InvalidThreadIdError";

  constructor(threadId: string) {
    super(threadId, "a thread id must be a non-empty string");
  }
}

/** Why a thread is not waiting for a reviewer. */
export type NotPausedReason =
  | { kind: "completed" }
  | { kind: "stopped"; next: readonly string[]; errors: readonly string[] }
  | { kind: "other_interrupt"; interruptIds: readonly string[] };

function describeNotPaused(reason: NotPausedReason): string {
  switch (reason.kind) {
    case "completed":
      return "the run has completed";
    case "stopped": {
      const errors =
        reason.errors.length === 0 ? "" : ` after an error (${reason.errors.join("; ")})`;
      return `the run stopped before ${reason.next.join(", ")}${errors}`;
    }
    case "other_interrupt":
      return `it is paused at an interrupt that is not a review (${reason.interruptIds.join(", ")})`;
  }
}

/** A decision was submitted to a thread that is not paused at a review. */
export class ThreadNotPausedError extends OrchestratorError {
  override readonly name = "ThreadNotPausedError";
  readonly reason: NotPausedReason;

  constructor(threadId: string, reason: NotPausedReason) {
    super(threadId, `not paused at a review: ${describeNotPaused(reason)}`);
    this.reason = reason;
  }
}

/** The thread is paused, but at another interrupt than the one the decision was meant for. */
export class InterruptMismatchError extends OrchestratorError {
  override readonly name = "InterruptMismatchError";
  readonly interruptId: string;
  readonly currentInterruptIds: readonly string[];

  constructor(threadId: string, interruptId: string, currentInterruptIds: readonly string[]) {
    super(
      threadId,
      `the decision is for interrupt "${interruptId}", but the thread is paused at ${currentInterruptIds
        .map((id) => `"${id}"`)
        .join(", ")}`,
    );
    this.interruptId = interruptId;
    this.currentInterruptIds = currentInterruptIds;
  }
}

/** One thing wrong with a decision: the field (dotted path, `(decision)` for the whole) and why. */
export interface DecisionIssue {
  field: string;
  message: string;
}

/** The reviewer's decision does not fit ReviewDecisionSchema or the review it answers. */
export class InvalidDecisionError extends OrchestratorError {
  override readonly name = "InvalidDecisionError";
  readonly issues: readonly DecisionIssue[];

  constructor(threadId: string, issues: readonly DecisionIssue[], options?: { cause?: unknown }) {
    super(
      threadId,
      `invalid review decision: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
      options,
    );
    this.issues = issues;
  }
}

/** The graph failed while running the thread (a node threw, or the run stopped unexpectedly). */
export class GraphRunError extends OrchestratorError {
  override readonly name = "GraphRunError";

  constructor(threadId: string, message: string, options?: { cause?: unknown }) {
    super(threadId, message, options);
  }
}

/** The thread's stored state does not have the shape the review fields need. */
export class ThreadStateError extends OrchestratorError {
  override readonly name = "ThreadStateError";
}

/** The checkpointer could not be opened: the SQLite file or the PostgreSQL database. */
export class CheckpointerError extends Error {
  override readonly name = "CheckpointerError";
  /** The SQLite path, or the PostgreSQL URL without its password. */
  readonly location: string;

  constructor(location: string, message: string, options?: { cause?: unknown }) {
    super(`checkpointer ${location}: ${message}`, options);
    this.location = location;
  }
}
