import { EvalgateError, errorGuard } from "../errors.js";
import { quotedId } from "../graph/reviewInput.js";
import { stepsLeft } from "../graph/stepWords.js";

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
      if (reason.next.length === 0) return "the run stopped before its first checkpoint";
      return `the run stopped with work left (${stepsLeft(reason.next)})${errors}`;
    }
    case "other_interrupt":
      return `it is paused at an interrupt that is not a review (${reason.interruptIds.join(", ")})`;
  }
}

const ORCHESTRATOR_ERROR_CODES = [
  "ORCHESTRATOR_FAILED",
  "CHECKPOINT_NOT_FOUND",
  "THREAD_EXISTS",
  "THREAD_FOREIGN",
  "THREAD_ID_INVALID",
  "THREAD_NOT_PAUSED",
  "INTERRUPT_MISMATCH",
  "DECISION_INVALID",
  "GRAPH_RUN_FAILED",
  "THREAD_STATE_INVALID",
] as const;
export type OrchestratorErrorCode = (typeof ORCHESTRATOR_ERROR_CODES)[number];

/** Something the review orchestrator refused or could not do, on one thread; `code` says what. */
export class OrchestratorError extends EvalgateError<OrchestratorErrorCode> {
  readonly threadId: string;

  constructor(
    threadId: string,
    message: string,
    options: { cause?: unknown; code?: OrchestratorErrorCode } = {},
  ) {
    const code = options.code ?? "ORCHESTRATOR_FAILED";
    // The id as given, quoted and escaped, cut to 64 characters: a message is one line.
    super(code, `thread ${quotedId(threadId)}: ${message}`, options);
    this.threadId = threadId;
  }
}

export function threadNotFound(threadId: string): OrchestratorError {
  return new OrchestratorError(threadId, "no such thread in the checkpointer", {
    code: "CHECKPOINT_NOT_FOUND",
  });
}

export function threadExists(threadId: string): OrchestratorError {
  return new OrchestratorError(
    threadId,
    "the thread already exists; resume it with submitDecision or start with another id",
    { code: "THREAD_EXISTS" },
  );
}

export function invalidThreadId(threadId: string, reason = "is empty"): OrchestratorError {
  return new OrchestratorError(threadId, `not a thread id: it ${reason}`, {
    code: "THREAD_ID_INVALID",
  });
}

/** The thread was made by another graph that shares the checkpointer: this one cannot resume it. */
export class ForeignThreadError extends OrchestratorError {
  readonly channels: readonly string[];

  constructor(threadId: string, channels: readonly string[]) {
    const shown = channels.slice(0, 5).join(", ");
    const more = channels.length > 5 ? `, … (${channels.length} in all)` : "";
    super(
      threadId,
      `the thread belongs to another graph (its state has ${shown}${more}, which this graph lacks); open it with the graph that started it`,
      { code: "THREAD_FOREIGN" },
    );
    this.channels = channels;
  }
}

/** A decision was submitted to a thread that is not paused at a review. */
export class ThreadNotPausedError extends OrchestratorError {
  readonly reason: NotPausedReason;

  constructor(threadId: string, reason: NotPausedReason) {
    super(threadId, `not paused at a review: ${describeNotPaused(reason)}`, {
      code: "THREAD_NOT_PAUSED",
    });
    this.reason = reason;
  }
}

/** The thread is paused, but at another interrupt than the one the decision was meant for. */
export class InterruptMismatchError extends OrchestratorError {
  readonly interruptId: string;
  readonly currentInterruptIds: readonly string[];

  constructor(threadId: string, interruptId: string, currentInterruptIds: readonly string[]) {
    super(
      threadId,
      `the decision is for interrupt ${quotedId(interruptId)}, but the thread is paused at ${currentInterruptIds
        .map((id) => quotedId(id))
        .join(", ")}`,
      { code: "INTERRUPT_MISMATCH" },
    );
    this.interruptId = interruptId;
    this.currentInterruptIds = currentInterruptIds;
  }
}

export interface DecisionIssue {
  field: string;
  message: string;
}

/** The reviewer's decision does not fit ReviewDecisionSchema or the review it answers. */
export class InvalidDecisionError extends OrchestratorError {
  readonly issues: readonly DecisionIssue[];

  constructor(threadId: string, issues: readonly DecisionIssue[], options?: { cause?: unknown }) {
    super(
      threadId,
      `invalid review decision: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
      { ...options, code: "DECISION_INVALID" },
    );
    this.issues = issues;
  }
}

/** The checkpointer could not be opened: the SQLite file or the PostgreSQL database. */
export class CheckpointerError extends EvalgateError {
  readonly location: string;

  constructor(location: string, message: string, options: { cause?: unknown } = {}) {
    super("CHECKPOINTER_UNAVAILABLE", `checkpointer ${location}: ${message}`, options);
    this.location = location;
  }
}

export const isOrchestratorError = errorGuard<OrchestratorError>(...ORCHESTRATOR_ERROR_CODES);
export const isThreadNotFoundError = errorGuard<OrchestratorError>("CHECKPOINT_NOT_FOUND");
