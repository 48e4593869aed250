/** The proposal a desk thread has written so far: the document of its latest state. */
import type { OverallProposalStateType } from "../graph/state.js";
import { threadProgress } from "../graph/threadProgress.js";
import { buildProposalDocument, type ProposalDocument } from "../proposal/document.js";
import type { Reviewer } from "../store/reviewers.js";
import { accessThread, type DeskContext, snapshotOf } from "./actions.js";

/** The state of a thread that has no checkpoint yet: nothing written. */
const NOTHING_WRITTEN = {
  sections: {},
  errors: [],
  reviewHistory: [],
  revisionCounts: {},
  revisionFeedback: {},
} as unknown as OverallProposalStateType;

export async function threadProposal(
  ctx: DeskContext,
  threadId: string,
  by: Reviewer,
): Promise<ProposalDocument> {
  const thread = await accessThread(ctx, threadId, by);
  const snapshot = await snapshotOf(ctx, threadId);
  const values =
    snapshot === undefined
      ? NOTHING_WRITTEN
      : ({ ...NOTHING_WRITTEN, ...snapshot.values } as OverallProposalStateType);
  return buildProposalDocument({
    threadId,
    title: thread.title,
    values,
    stages: ctx.runtime.stages,
    finished: snapshot !== undefined && threadProgress(snapshot).kind === "finished",
  });
}
