/** The words of the orchestrator errors' messages. */

/** Why a thread is not waiting for a reviewer. */
export type NotPausedReason =
  | { kind: "completed" }
  | { kind: "stopped"; next: readonly string[]; errors: readonly string[] }
  | { kind: "other_interrupt"; interruptIds: readonly string[] };

/** Why a thread is not paused at a review, in words. */
export function describeNotPaused(reason: NotPausedReason): string {
  switch (reason.kind) {
    case "completed":
      return "the run has completed";
    case "stopped": {
      const errors =
        reason.errors.length === 0 ? "" : ` after an error (${reason.errors.join("; ")})`;
      if (reason.next.length === 0) return "the run stopped before its first checkpoint";
      return `the run stopped with work left at ${reason.next.join(", ")}${errors}`;
    }
    case "other_interrupt":
      return `it is paused at an interrupt that is not a review (${reason.interruptIds.join(", ")})`;
  }
}
