/**
 * The review desk: what the review service (HTTP API and pages) and the CLI ask on behalf of a
 * signed-in reviewer, each method one step over the desk's context (actions.ts, decide.ts, here).
 */
import { randomBytes } from "node:crypto";
import { calibrationReport } from "../calibration/labels.js";
import type { CalibrationMeasurement, CalibrationReport } from "../calibration/reportModel.js";
import { sinksOfSaver } from "../graph/runSinks.js";
import type { OverallProposalStateType } from "../graph/state.js";
import { threadProgress } from "../graph/threadProgress.js";
import { buildProposalDocument, type ProposalDocument } from "../proposal/document.js";
import { redactSecrets, redactSecretText } from "../redact.js";
import type { Trace } from "../scoring/result.js";
import type { Reviewer } from "../store/reviewers.js";
import { hashToken } from "../store/tokens.js";
import {
  accessThread,
  assignReviewer,
  authenticate,
  type DeskContext,
  finishedProposals,
  getReview,
  listReviews,
  retryThread,
  snapshotOf,
  startProposal,
  threadEvents,
  threadStatus,
} from "./actions.js";
import type { ThreadTraces } from "./answers.js";
import { decide } from "./decide.js";
import { forbidden, invalidInput } from "./errors.js";

/*
 * Page sessions: the store keeps the hash of a random id (the id lives only in the sealed cookie),
 * so a session ended on one replica is refused by all of them at once. Anything longer than ours
 * is not hashed.
 */
const usableId = (sessionId: string) => sessionId !== "" && sessionId.length <= 128;

async function openSession(ctx: DeskContext, reviewer: Reviewer, expiresAt: Date) {
  const sessionId = randomBytes(32).toString("base64url");
  await ctx.store.openSession(
    { idHash: hashToken(sessionId), reviewer: reviewer.name, expiresAt: expiresAt.toISOString() },
    new Date().toISOString(),
  );
  return sessionId;
}

async function sessionReviewer(ctx: DeskContext, sessionId: string) {
  if (!usableId(sessionId)) return undefined;
  return ctx.store.sessionReviewer(hashToken(sessionId), new Date().toISOString());
}

async function endSession(ctx: DeskContext, sessionId: string): Promise<void> {
  if (!usableId(sessionId)) return;
  await ctx.store.endSession(hashToken(sessionId), new Date().toISOString());
}

/** The state of a thread that has no checkpoint yet: nothing written. */
const NOTHING_WRITTEN = {
  sections: {},
  errors: [],
  reviewHistory: [],
  revisionCounts: {},
  revisionFeedback: {},
} as unknown as OverallProposalStateType;

const STOPPED = "stopped on an error; an administrator can see what went wrong";

async function threadProposal(
  ctx: DeskContext,
  threadId: string,
  by: Reviewer,
): Promise<ProposalDocument> {
  const thread = await accessThread(ctx, threadId, by);
  const snapshot = await snapshotOf(ctx, threadId);
  const document = buildProposalDocument({
    threadId,
    title: thread.title,
    values: { ...NOTHING_WRITTEN, ...snapshot?.values } as OverallProposalStateType,
    stages: ctx.runtime.stages,
    finished: snapshot !== undefined && threadProgress(snapshot).kind === "finished",
  });
  // A plain reviewer reads that a stage failed; what failed (it may name the model server) is an administrator's.
  if (by.role === "admin") return document;
  const plain = <E extends { message: string }>(error: E): E => ({ ...error, message: STOPPED });
  const { current, superseded } = document.errors;
  return {
    ...document,
    errors: { current: current.map(plain), superseded: superseded.map(plain) },
  };
}

/** Secrets replaced by `***` again on the way out, whatever wrote the rows. */
async function threadTraces(ctx: DeskContext, threadId: string, by: Reviewer) {
  await accessThread(ctx, threadId, by);
  const store = sinksOfSaver(ctx.checkpointer.saver).traces;
  const evaluations = store === undefined ? [] : await store.getThreadEvaluations(threadId);
  const redacted = (trace: Trace): Trace => ({
    ...trace,
    parameters: redactSecrets(trace.parameters) as Trace["parameters"],
    systemPrompt: redactSecretText(trace.systemPrompt),
    userPrompt: redactSecretText(trace.userPrompt),
    rawResponse: redactSecretText(trace.rawResponse),
    ...(trace.error === undefined ? {} : { error: redactSecretText(trace.error) }),
  });
  const traces: ThreadTraces = {
    threadId,
    evaluations: evaluations.map(({ evaluationId, traces }) => ({
      evaluationId,
      traces: traces.map(redacted),
    })),
  };
  return traces;
}

export interface CalibrationOverview {
  report: CalibrationReport;
  /** Null until `evalgate calibrate --compare` has recorded one in this database. */
  comparison: CalibrationMeasurement | null;
}

/** The days of labels read by default (a page load reads a bounded window), and at most. */
const CALIBRATION_DAYS = 90;
export const MAX_CALIBRATION_DAYS = 3660;

async function calibrationOverview(
  ctx: DeskContext,
  by: Reviewer,
  days: number = CALIBRATION_DAYS,
): Promise<CalibrationOverview> {
  if (by.role !== "admin") throw forbidden("see the calibration report", by.name);
  if (!Number.isInteger(days) || days < 1 || days > MAX_CALIBRATION_DAYS) {
    throw invalidInput("days", `a whole number of days from 1 to ${MAX_CALIBRATION_DAYS}`);
  }
  const since = new Date(Date.now() - days * 86_400_000).toISOString();
  const [report, latest] = await Promise.all([
    calibrationReport({ store: ctx.store, since }),
    ctx.store.latestCalibrationMeasurement(),
  ]);
  return { report, comparison: latest ?? null };
}

export function reviewDesk(ctx: DeskContext, close: () => Promise<void>) {
  const { store } = ctx;
  const on =
    <A extends unknown[], R>(step: (ctx: DeskContext, ...args: A) => R) =>
    (...args: A) =>
      step(ctx, ...args);
  return {
    /** The reviewer a bearer token belongs to, or undefined (unknown or revoked). */
    authenticate: on(authenticate),
    /** Signs an authenticated reviewer in to the pages: a new session until `expiresAt` or sign-out. */
    openSession: on(openSession),
    /** The reviewer of a session still open: not ended, not expired, its reviewer not revoked. */
    sessionReviewer: on(sessionReviewer),
    /** Ends the session for every replica (sign-out). */
    endSession: on(endSession),
    /** Records the thread, assigns its creator, enqueues the job that runs to the first review. */
    startProposal: on(startProposal),
    /** Admin only: another reviewer may see and decide this thread's reviews. */
    assignReviewer: on(assignReviewer),
    /** The pending reviews this reviewer may see, newest first, keyset-paginated. */
    listReviews: on(listReviews),
    /** The finished proposals this reviewer may read (all of them for admins), last finished first. */
    finishedProposals: on(finishedProposals),
    getReview: on(getReview),
    /**
     * Records the decision (unique per thread and interrupt, in the transaction that takes the
     * review off the pending index) and enqueues the job that applies it exactly once.
     */
    decide: on(decide),
    threadStatus: on(threadStatus),
    /** The thread's proposal: a draft until the run finished with every stage approved or edited. */
    threadProposal: on(threadProposal),
    /** The judge calls of the thread's evaluations (oldest first), secrets replaced by `***`. */
    threadTraces: on(threadTraces),
    /** A failed thread queued again, once whoever asks (THREAD_NOT_FAILED when it has not failed). */
    retryThread: on(retryThread),
    /** Events after `afterSeq` (0 for all), for SSE. */
    events: on(threadEvents),
    /** Admin only: the labels' calibration report of the last `days` days and the latest comparison. */
    calibration: on(calibrationOverview),
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
