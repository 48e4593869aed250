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

const STOPPED = "stopped on an error; an administrator can see what went wrong";

/** A plain reviewer reads that a stage failed; what failed (it may name the model server) is an administrator's. */
function forReader(document: ProposalDocument, by: Reviewer): ProposalDocument {
  if (by.role === "admin") return document;
  const { current, superseded } = document.errors;
  const plain = <E extends { message: string }>(error: E): E => ({ ...error, message: STOPPED });
  return {
    ...document,
    errors: { current: current.map(plain), superseded: superseded.map(plain) },
  };
}

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
  const document = buildProposalDocument({
    threadId,
    title: thread.title,
    values,
    stages: ctx.runtime.stages,
    finished: snapshot !== undefined && threadProgress(snapshot).kind === "finished",
  });
  return forReader(document, by);
}
