/**
 * The words a reader sees for a stage's or a thread's status, the same on the review pages and in
 * the proposal (`evalgate show`, its Markdown, its page).
 */

/** Stage statuses (ProcessingStatus) and thread statuses. */
export const STATUS_WORDS: Readonly<Record<string, string>> = {
  not_started: "not started",
  running: "being worked on",
  completed: "written, not judged yet",
  evaluating: "being judged",
  awaiting_review: "waiting for a reviewer",
  revision_requested: "sent back for a revision",
  approved: "approved",
  edited: "edited by a reviewer",
  stale: "to be redone (an earlier part changed)",
  error: "stopped on an error",
  queued: "waiting to be worked on",
  waiting: "waiting for a reviewer",
  finished: "finished",
  failed: "stopped on an error",
  /** A run its process stopped (Ctrl-C): nothing runs it until someone goes on with it. */
  stopped: "stopped before it was done; go on with it to finish",
};

/** A status in words; an id no table knows, its words (`being_translated` → `being translated`). */
export function statusName(status: string): string {
  return STATUS_WORDS[status] ?? status.replaceAll("_", " ");
}
