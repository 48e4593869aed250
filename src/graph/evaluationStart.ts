import type { ProposalUpdate } from "./state.js";
import { parseStatePath, statePathUpdate } from "./statePath.js";

/**
 * The node that runs just before a stage's evaluation node and writes `evaluating` to the stage's
 * status. LangGraph writes a checkpoint between two nodes, not inside one: with the status written
 * by a node of its own, the checkpoint the evaluation runs from (the one a crash or a `getState`
 * during the judge's calls finds) says `evaluating`, not the status before. The evaluation node
 * still reports `evaluating` as a stream event for progress displays.
 */
export function createEvaluationStartNode(statusField: string): () => ProposalUpdate {
  const statusPath = parseStatePath(statusField);
  return () => statePathUpdate(statusPath, "evaluating");
}
