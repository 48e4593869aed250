import { EvalgateError } from "../errors.js";

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
