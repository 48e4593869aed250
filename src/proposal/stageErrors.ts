/**
 * The errors of a thread: an error is current only while its stage still stands on it (status
 * `error`, its latest error); a stage that moved on has superseded its errors.
 */
import { stageStatus } from "../graph/reviewDecisions.js";
import type { StageDefinition } from "../graph/stages.js";
import type { OverallProposalStateType } from "../graph/state.js";

export interface ThreadError {
  /** The stage the error belongs to (from its `[evaluate <id>]` / `[generate <id>]` tag). */
  stage?: string;
  message: string;
}

export interface ThreadErrors {
  /** What still stands: each errored stage's latest error, and untagged ones. */
  current: ThreadError[];
  superseded: ThreadError[];
}

const STAGE_TAG = /^\[(?:evaluate|generate) ([^\]\s]+)\]/;

export function threadErrors(
  values: Pick<OverallProposalStateType, "errors"> & Partial<OverallProposalStateType>,
  stages: readonly StageDefinition[],
): ThreadErrors {
  const errors = values.errors ?? [];
  const byId = new Map(stages.map((s) => [s.id, s]));
  const tagged = errors.map((message) => {
    const id = STAGE_TAG.exec(message)?.[1];
    return id !== undefined && byId.has(id) ? { stage: id, message } : { message };
  });
  const lastOf = new Map<string, number>();
  tagged.forEach((error, index) => {
    if (error.stage !== undefined) lastOf.set(error.stage, index);
  });
  const result: ThreadErrors = { current: [], superseded: [] };
  tagged.forEach((error, index) => {
    const stage = error.stage === undefined ? undefined : byId.get(error.stage);
    const standing =
      stage === undefined ||
      (lastOf.get(stage.id) === index &&
        stageStatus(values as OverallProposalStateType, stage) === "error");
    (standing ? result.current : result.superseded).push(error);
  });
  return result;
}
