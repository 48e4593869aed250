import { EvalgateError, errorGuard } from "../errors.js";

const GRAPH_ERROR_CODES = [
  "STATE_PATH_INVALID",
  "DEPENDENCY_MAP_INVALID",
  "RFP_UNREADABLE",
  "NOTHING_EVALUATED",
  "GENERATION_OUTPUT_INVALID",
  "RESUME_WITHOUT_PAUSE",
  "RESUME_INVALID",
  "RUN_SETTINGS_CHANGED",
  "GRAPH_INPUT_INVALID",
  "RUN_CONTEXT_INVALID",
  "CHECKPOINTER_MISSING",
  "REVIEW_NOT_SKIPPABLE",
] as const;
export type GraphErrorCode = (typeof GRAPH_ERROR_CODES)[number];

/** An error of the evaluation and proposal graphs; `code` says what (docs/errors.md). */
export class GraphError extends EvalgateError<GraphErrorCode> {}

/** A state field named in node options is not one the state has (`STATE_PATH_INVALID`). */
export function statePathError(path: string, detail: string): GraphError {
  return new GraphError("STATE_PATH_INVALID", `state field "${path}": ${detail}`);
}

/** Not one criterion could be evaluated, every judge answer unusable (`NOTHING_EVALUATED`). */
export function nothingEvaluated(reasons: readonly string[]): GraphError {
  return new GraphError(
    "NOTHING_EVALUATED",
    `no criterion could be evaluated${reasons.length === 0 ? "" : ` (${reasons.join("; ")})`}`,
  );
}

/** A run's input is not what the graph takes (`GRAPH_INPUT_INVALID`); nothing was run. */
export function graphInputInvalid(issues: string): GraphError {
  return new GraphError("GRAPH_INPUT_INVALID", `the graph's input is refused: ${issues}`);
}

/** A run's context is not what the graph takes (`RUN_CONTEXT_INVALID`); nothing was run. */
export function runContextInvalid(issues: string): GraphError {
  return new GraphError("RUN_CONTEXT_INVALID", `the run's context is refused: ${issues}`);
}

/** A run of a graph that pauses for a reviewer has no checkpointer to pause on; nothing was run. */
export function checkpointerMissing(): GraphError {
  return new GraphError(
    "CHECKPOINTER_MISSING",
    "the evaluation gate pauses for a reviewer, and a pause is kept by a checkpointer: compile " +
      "the gate, or the graph it runs in, with one (compile({ checkpointer: new MemorySaver() }), " +
      "or a SqliteSaver to keep threads across restarts)",
  );
}

/** A run resumed a thread with other settings than it started with; nothing was run. */
export function runSettingsChanged(threadId: string, changes: readonly string[]): GraphError {
  return new GraphError(
    "RUN_SETTINGS_CHANGED",
    `thread '${threadId}' was started with other settings (${changes.join("; ")}): resume it ` +
      "with the settings it started with, or override them explicitly (overrideSettings: true, " +
      "--override-settings)",
  );
}

/** A state update would end a thread at a review, or answer it without a decision; nothing changed. */
export function reviewNotSkippable(threadId: string, asNode: string, waiting: string): GraphError {
  return new GraphError(
    "REVIEW_NOT_SKIPPABLE",
    `thread '${threadId}' waits at a review (${waiting}): a state update as ${asNode} would ` +
      "skip it, leaving the content undecided; answer the review instead (approve, revise, edit " +
      "or retry; in Agent Inbox: Accept, Respond or Edit)",
  );
}

export const isNothingEvaluatedError = errorGuard<GraphError>("NOTHING_EVALUATED");
