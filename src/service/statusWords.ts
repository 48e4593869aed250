/**
 * The words reviewers read for the ids of statuses, stages, graph steps, review kinds, decisions
 * and progress events, one table each; an id no table knows is shown as words, never bare.
 */
import { capitalised, stageName, stepName, wordsOf } from "../graph/threadProgress.js";
import type { ThreadEvent } from "../store/threadEvents.js";

export { stageName, stepName } from "../graph/threadProgress.js";
export { STATUS_WORDS, statusName } from "../proposal/statusWords.js";

/** The interrupt's type. */
export const REVIEW_KIND_WORDS: Readonly<Record<string, string>> = {
  evaluation_review: "review of the judge's evaluation",
  evaluation_error: "the judge could not evaluate",
  generation_error: "the writer could not write it",
  revision_limit: "revision limit reached",
};

/** A verb phrase after the reviewer's name. */
const DECISION_WORDS: Readonly<Record<string, string>> = {
  approve: "approved",
  revise: "asked for a revision of",
  edit: "edited",
  retry: "asked to try again on",
};

export function reviewKindName(type: string): string {
  return REVIEW_KIND_WORDS[type] ?? wordsOf(type);
}

export function decisionName(action: string): string {
  return DECISION_WORDS[action] ?? wordsOf(action);
}

/** A queued event: after a decision (`ana: approve`), a start or a retry (`retried by ana`). */
function queuedText(message: string | undefined, stage: string | undefined): string {
  const decided = /^(.+): (approve|revise|edit|retry)$/.exec(message ?? "");
  if (decided !== null && stage !== undefined) {
    return `${decided[1]} ${decisionName(decided[2] ?? "")} ${stage}; waiting to go on`;
  }
  return message === undefined ? "Waiting to be worked on" : `Waiting to be worked on (${message})`;
}

/** A failure says only that the run stopped: its message is for administrators. */
export function progressText(event: Pick<ThreadEvent, "type" | "stage" | "message">): string {
  const stage = event.stage === undefined ? undefined : stageName(event.stage);
  switch (event.type) {
    case "queued":
      return queuedText(event.message, stage);
    case "running":
      return stage === undefined ? "Working" : `Working on ${stage}`;
    case "stage":
      return capitalised(event.message === undefined ? "a step done" : stepName(event.message));
    case "progress":
      return event.message ?? (stage === undefined ? "Working" : `Working on ${stage}`);
    case "review_ready":
      return stage === undefined ? "Ready for review" : `${stage} is ready for review`;
    case "finished":
      return "Finished: every stage is done";
    case "failed":
      return "Stopped on an error";
    case "stopped":
      return event.message === undefined
        ? "Stopped before it was done"
        : `Stopped before it was done (${event.message})`;
    default:
      return capitalised(wordsOf(event.type));
  }
}
