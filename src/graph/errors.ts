import { EvalgateError, errorGuard } from "../errors.js";
import { shownId } from "./reviewInput.js";

/** The codes of the graph's errors. */
export const GRAPH_ERROR_CODES = [
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
] as const;
export type GraphErrorCode = (typeof GRAPH_ERROR_CODES)[number];

/**
 * An error of the evaluation and proposal graphs; `code` says what: a state field named in node
 * options that the state does not have (`STATE_PATH_INVALID`), a dependency map that cannot be
 * read or has a wrong shape (`DEPENDENCY_MAP_INVALID`), an RFP that is missing or unreadable
 * (`RFP_UNREADABLE`), not one criterion evaluated (`NOTHING_EVALUATED`), a writer's answer that
 * cannot be used (`GENERATION_OUTPUT_INVALID`), a review answer for a thread that is not paused
 * (`RESUME_WITHOUT_PAUSE`), a review answer no review takes (`RESUME_INVALID`,
 * ReviewResumeInvalidError: no longer thrown by the graphs, which ask again instead), or a run
 * resumed with other settings than the thread started with (`RUN_SETTINGS_CHANGED`), a run given
 * an input (`GRAPH_INPUT_INVALID`) or a context (`RUN_CONTEXT_INVALID`) the graph does not take.
 */
export class GraphError extends EvalgateError<GraphErrorCode> {
  override name = "GraphError";
}

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

/**
 * A reviewer's answer (a Command with `resume`) arrived for a thread that is not paused for
 * review: it finished, it is running, or it never started (`RESUME_WITHOUT_PAUSE`). Nothing ran.
 */
export function resumeWithoutPause(threadId: string): GraphError {
  return new GraphError(
    "RESUME_WITHOUT_PAUSE",
    `thread '${threadId}' is not paused for review: there is nothing to resume`,
  );
}

/** A run's input is not what the graph takes (`GRAPH_INPUT_INVALID`); nothing was run. */
export function graphInputInvalid(issues: string): GraphError {
  return new GraphError("GRAPH_INPUT_INVALID", `the graph's input is refused: ${issues}`);
}

/**
 * A run's context (model, passing threshold, revision limit, mode) is not what the graph takes
 * (`RUN_CONTEXT_INVALID`); nothing was run.
 */
export function runContextInvalid(issues: string): GraphError {
  return new GraphError("RUN_CONTEXT_INVALID", `the run's context is refused: ${issues}`);
}

/**
 * A run resumed a thread with settings (model, passing threshold, revision limit, mode) other
 * than those it started with (`RUN_SETTINGS_CHANGED`); nothing was run. Pass
 * `overrideSettings: true` in the run's `configurable` to apply the new ones.
 */
export function runSettingsChanged(threadId: string, changes: readonly string[]): GraphError {
  return new GraphError(
    "RUN_SETTINGS_CHANGED",
    `thread '${threadId}' was started with other settings (${changes.join("; ")}): resume it ` +
      "with the settings it started with, or override them explicitly (overrideSettings: true, " +
      "--override-settings)",
  );
}

/** One thing wrong with a resume value: where (a path into the value) and what. */
export interface ResumeIssue {
  path: Array<string | number>;
  message: string;
}

/**
 * A reviewer's answer that no review takes, as an error (`RESUME_INVALID`). The graphs no longer
 * throw it: a refused answer makes the review ask again, with the refusal in its description, and
 * the thread stays paused (reviewAnswer.ts). Kept for one release for code that checks for it.
 */
export class ReviewResumeInvalidError extends GraphError {
  override name = "ReviewResumeInvalidError";

  constructor(
    readonly threadId: string,
    readonly issues: readonly ResumeIssue[],
  ) {
    const shown = issues
      .slice(0, 5)
      .map((i) => `${i.path.length === 0 ? "(value)" : i.path.join(".")}: ${i.message}`)
      .join("; ");
    super(
      "RESUME_INVALID",
      `the review answer for thread ${shownId(threadId)} is refused: ${shown}`,
    );
  }
}

export const isGraphError = errorGuard<GraphError>(...GRAPH_ERROR_CODES);
export const isNothingEvaluatedError = errorGuard<GraphError>("NOTHING_EVALUATED");
export const isReviewResumeInvalidError = errorGuard<ReviewResumeInvalidError>("RESUME_INVALID");
