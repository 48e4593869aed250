import { EvalgateError, errorGuard } from "../errors.js";
import { shownId } from "./reviewInput.js";

/** A state field named in node options is not one the state has. */
export class StatePathError extends EvalgateError {
  override readonly name = "StatePathError";
  override readonly code = "STATE_PATH_INVALID";
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super("STATE_PATH_INVALID", `state field "${path}": ${detail}`);
  }
}

/** A dependency map (which content depends on which) that cannot be read or has a wrong shape. */
export class DependencyMapError extends EvalgateError {
  override readonly name = "DependencyMapError";
  override readonly code = "DEPENDENCY_MAP_INVALID";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("DEPENDENCY_MAP_INVALID", message, options);
  }
}

/** The RFP is missing or cannot be read: nothing can be written. */
export class RfpLoadError extends EvalgateError {
  override readonly name = "RfpLoadError";
  override readonly code = "RFP_UNREADABLE";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("RFP_UNREADABLE", message, options);
  }
}

/** Not one criterion could be evaluated (every judge answer unusable): a processing failure. */
export class NothingEvaluatedError extends EvalgateError {
  override readonly name = "NothingEvaluatedError";
  override readonly code = "NOTHING_EVALUATED";
  constructor(readonly reasons: readonly string[]) {
    super(
      "NOTHING_EVALUATED",
      `no criterion could be evaluated${reasons.length === 0 ? "" : ` (${reasons.join("; ")})`}`,
    );
  }
}

/** The writer's answer could not be used (no JSON object, wrong shape, empty text). */
export class GenerationOutputError extends EvalgateError {
  override readonly name = "GenerationOutputError";
  override readonly code = "GENERATION_OUTPUT_INVALID";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("GENERATION_OUTPUT_INVALID", message, options);
  }
}

/**
 * A reviewer's answer (a Command with `resume`) arrived for a thread that is not paused for
 * review: it finished, it is running, or it never started. Nothing was run.
 */
export class ResumeWithoutPauseError extends EvalgateError {
  override readonly name = "ResumeWithoutPauseError";

  constructor(readonly threadId: string) {
    super(
      "RESUME_WITHOUT_PAUSE",
      `thread '${threadId}' is not paused for review: there is nothing to resume`,
    );
  }
}

/** One thing wrong with a resume value: where (a path into the value) and what. */
export interface ResumeIssue {
  path: Array<string | number>;
  message: string;
}

/**
 * A reviewer's answer (a Command with `resume`) that no review takes: a field fails the review
 * boundary's checks (a name with a line break, feedback without visible text, content over 1 MiB,
 * an id with characters ids do not have…). Refused before the run starts: nothing is stored, the
 * thread stays paused.
 */
export class ReviewResumeInvalidError extends EvalgateError {
  override readonly name = "ReviewResumeInvalidError";

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

/**
 * A run resumed a thread with settings (model, passing threshold, revision limit, mode) other
 * than those it started with; nothing was run. Pass `overrideSettings: true` in the run's
 * `configurable` to apply the new ones (they are recorded with the thread).
 */
export class RunSettingsChangedError extends EvalgateError {
  override readonly name = "RunSettingsChangedError";

  constructor(
    readonly threadId: string,
    readonly changes: readonly string[],
  ) {
    super(
      "RUN_SETTINGS_CHANGED",
      `thread '${threadId}' was started with other settings (${changes.join("; ")}): resume it ` +
        "with the settings it started with, or override them explicitly (overrideSettings: true, " +
        "--override-settings)",
    );
  }
}

/** The codes of the graph's errors, one per class. */
export const GRAPH_ERROR_CODES = [
  "STATE_PATH_INVALID",
  "DEPENDENCY_MAP_INVALID",
  "RFP_UNREADABLE",
  "NOTHING_EVALUATED",
  "GENERATION_OUTPUT_INVALID",
  "RESUME_WITHOUT_PAUSE",
  "RESUME_INVALID",
  "RUN_SETTINGS_CHANGED",
] as const;

export const isStatePathError = errorGuard<StatePathError>("STATE_PATH_INVALID");
export const isDependencyMapError = errorGuard<DependencyMapError>("DEPENDENCY_MAP_INVALID");
export const isRfpLoadError = errorGuard<RfpLoadError>("RFP_UNREADABLE");
export const isNothingEvaluatedError = errorGuard<NothingEvaluatedError>("NOTHING_EVALUATED");
export const isGenerationOutputError = errorGuard<GenerationOutputError>(
  "GENERATION_OUTPUT_INVALID",
);
export const isResumeWithoutPauseError =
  errorGuard<ResumeWithoutPauseError>("RESUME_WITHOUT_PAUSE");
export const isReviewResumeInvalidError = errorGuard<ReviewResumeInvalidError>("RESUME_INVALID");
export const isRunSettingsChangedError =
  errorGuard<RunSettingsChangedError>("RUN_SETTINGS_CHANGED");
