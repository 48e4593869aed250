/**
 * The review desk: what the review service (HTTP API and pages) and the CLI ask on behalf of a
 * signed-in reviewer, each method one step of actions.ts over the desk's context.
 */
import type { Reviewer } from "../store/reviewers.js";
import {
  assignReviewer,
  authenticate,
  type DeskContext,
  finishedProposals,
  getReview,
  listReviews,
  retryThread,
  startProposal,
  threadEvents,
  threadStatus,
} from "./actions.js";
import { calibrationOverview } from "./calibration.js";
import { decide } from "./decide.js";
import type { DecisionRequest, PageRequest, StartProposal } from "./requests.js";
import { endSession, openSession, sessionReviewer } from "./sessions.js";
import { threadProposal } from "./threadProposal.js";
import { threadTraces } from "./traces.js";

export function reviewDesk(ctx: DeskContext, close: () => Promise<void>) {
  const { store } = ctx;
  return {
    /** The reviewer a bearer token belongs to, or undefined (unknown or revoked). */
    authenticate: (token: string) => authenticate(ctx, token),
    /** Signs an authenticated reviewer in to the pages: a new session until `expiresAt` or sign-out. */
    openSession: (reviewer: Reviewer, expiresAt: Date) => openSession(store, reviewer, expiresAt),
    /** The reviewer of a session still open: not ended, not expired, its reviewer not revoked. */
    sessionReviewer: (sessionId: string) => sessionReviewer(store, sessionId),
    /** Ends the session for every replica (sign-out). */
    endSession: (sessionId: string) => endSession(store, sessionId),
    /** Records the thread, assigns its creator, enqueues the job that runs to the first review. */
    startProposal: (input: StartProposal, by: Reviewer) => startProposal(ctx, input, by),
    /** Admin only: another reviewer may see and decide this thread's reviews. */
    assignReviewer: (threadId: string, name: string, by: Reviewer) =>
      assignReviewer(ctx, threadId, name, by),
    /** The pending reviews this reviewer may see, newest first, keyset-paginated. */
    listReviews: (by: Reviewer, page: PageRequest) => listReviews(ctx, by, page),
    /** The finished proposals this reviewer may read (all of them for admins), last finished first. */
    finishedProposals: (by: Reviewer, page: PageRequest) => finishedProposals(ctx, by, page),
    getReview: (threadId: string, by: Reviewer) => getReview(ctx, threadId, by),
    /**
     * Records the decision (unique per thread and interrupt, in the transaction that takes the
     * review off the pending index) and enqueues the job that applies it exactly once.
     */
    decide: (threadId: string, request: DecisionRequest, by: Reviewer) =>
      decide(ctx, threadId, request, by),
    threadStatus: (threadId: string, by: Reviewer) => threadStatus(ctx, threadId, by),
    /** The thread's proposal: a draft until the run finished with every stage approved or edited. */
    threadProposal: (threadId: string, by: Reviewer) => threadProposal(ctx, threadId, by),
    /** The judge calls of the thread's evaluations (oldest first), secrets replaced by `***`. */
    threadTraces: (threadId: string, by: Reviewer) => threadTraces(ctx, threadId, by),
    /** A failed thread queued again, once whoever asks (THREAD_NOT_FAILED when it has not failed). */
    retryThread: (threadId: string, by: Reviewer) => retryThread(ctx, threadId, by),
    /** Events after `afterSeq` (0 for all), for SSE. */
    events: (threadId: string, by: Reviewer, afterSeq: number) =>
      threadEvents(ctx, threadId, by, afterSeq),
    /** Admin only: the labels' calibration report of the last `days` days and the latest comparison. */
    calibration: (by: Reviewer, days?: number) => calibrationOverview(ctx, by, days),
    /** Counts a sign-in or token attempt under `key` in the store, so every replica counts together. */
    countAttempt: (key: string, windowSeconds: number) =>
      store.countAttempt(key, windowSeconds, new Date()),
    /** The attempts counted under `key` in its window still open (undefined: none). */
    attemptsOf: (key: string) => store.attemptsOf(key, new Date()),
    /** True when the database answers. */
    ready: () => store.ping(),
    /** Stops taking jobs, finishes or returns in-flight ones, closes the database. */
    close,
  };
}

export type ReviewDesk = ReturnType<typeof reviewDesk>;
