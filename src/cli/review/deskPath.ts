/**
 * The CLI decides the way the service does: the decision is a row (unique per interrupt) applied
 * under the thread's lock, here, so a command beside `evalgate serve` cannot apply it twice.
 */
import { userInfo } from "node:os";
import { createReviewDesk, type ReviewDeskHandle } from "../../desk/createReviewDesk.js";
import { isDeskError } from "../../desk/errors.js";
import { withErrorCode } from "../../errors.js";
import type { ReviewDecision } from "../../graph/model.js";
import type { buildProposalGraph } from "../../graph/proposalGraph.js";
import { ReviewerNameSchema } from "../../graph/reviewInput.js";
import { stepsLeft, threadProgress } from "../../graph/threadProgress.js";
import type { JudgeModel } from "../../llm/chatModel.js";
import type { GraphState } from "../../orchestrator/orchestratorEngine.js";
import { type PendingReview, reviewsOf } from "../../orchestrator/pendingReview.js";
import type { StageProgressListener } from "../../orchestrator/stageProgress.js";
import type { Reviewer } from "../../store/reviewers.js";
import { CliError } from "../errors.js";
import type { PanelJudging } from "../panelJudges.js";
import { type CheckpointStore, runThreadCommand, storeConnection } from "./store.js";

export interface CliDeskOptions {
  store: CheckpointStore;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  model?: JudgeModel;
  maxRevisions?: number | undefined;
  overrideSettings?: boolean;
  /** `false` (--no-cache): every criterion is asked of the model, none kept. */
  cache?: boolean | undefined;
  judging?: PanelJudging | undefined;
  /** `true` (--few-shot): the store's corrections are few-shot examples in every evaluation. */
  fewShot?: boolean;
  onProgress?: StageProgressListener;
  /** Ctrl-C: a run it cuts short leaves the thread as it stands (`run --thread` goes on). */
  stopping?: AbortSignal | undefined;
  /** `serve` runs the desk's jobs; the other commands advance threads here themselves. */
  runJobs?: boolean;
}

export function openCliDesk(options: CliDeskOptions): Promise<ReviewDeskHandle> {
  const { judging } = options;
  const evaluation = {
    ...(options.cache === false ? { cache: false as const } : {}),
    ...(judging === undefined ? {} : { judges: judging.judges, panel: judging.panel }),
  };
  return createReviewDesk({
    ...storeConnection(options.store),
    env: options.env,
    cwd: options.cwd,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.maxRevisions === undefined ? {} : { maxRevisions: options.maxRevisions }),
    ...(options.overrideSettings === true ? { overrideSettings: true } : {}),
    ...(Object.keys(evaluation).length === 0 ? {} : { graph: { evaluation } }),
    ...(options.fewShot === true ? { fewShot: true } : {}),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.stopping === undefined ? {} : { stopping: options.stopping }),
    // A run Ctrl-C cut short says in the index which command goes on with it.
    goOnWith: (threadId: string) => runThreadCommand(threadId, options),
    ...(options.runJobs === true ? {} : { jobs: { run: false } }),
  });
}

/** `--reviewer`, else the system user when the review boundary takes the name, else "cli". */
export function cliReviewer(name: string | undefined): Reviewer {
  const fallback = (() => {
    try {
      return userInfo().username;
    } catch {
      return "cli";
    }
  })();
  const chosen = ReviewerNameSchema.safeParse(name?.trim() || fallback);
  return { name: chosen.success ? chosen.data : "cli", role: "admin" };
}

/** Registers a thread the store does not know yet (started before the index existed); its row. */
async function registered(desk: ReviewDeskHandle, threadId: string, by: Reviewer) {
  const known = await desk.store.thread(threadId);
  if (known !== undefined) return known;
  await desk.store.createThread(
    { id: threadId, title: threadId, creator: by.name, status: "running", settings: {} },
    { type: "queued", message: `registered by ${by.name}` },
  );
  return undefined;
}

/** Why a thread another process runs was not run on here: after a decision, or without one. */
const BUSY = {
  decided:
    "is being advanced by another process (evalgate serve?); the decision is recorded and will be applied there",
  run: "is being run by another process (another evalgate run, or evalgate serve): go on with it when that one has stopped",
} as const;

/** Runs the thread on here, to its next review or its end; a failed run is one message. */
async function advanceHere(
  desk: ReviewDeskHandle,
  threadId: string,
  busy: keyof typeof BUSY,
): Promise<void> {
  if ((await desk.advanceThread(threadId)) === "busy") {
    throw new CliError(`thread ${threadId} ${BUSY[busy]}`);
  }
  const thread = await desk.store.thread(threadId);
  if (thread?.status === "failed") {
    throw new CliError(`thread ${threadId}: ${thread.error ?? "the run failed"}`);
  }
}

/** Starts the thread (its settings in the transaction recording it) and runs it to a review. */
export async function startThread(
  desk: ReviewDeskHandle,
  threadId: string,
  start: { input: Record<string, unknown>; title: string; settings: Record<string, unknown> },
  by: Reviewer,
): Promise<void> {
  const { input, title, settings } = start;
  await desk.store.createThread(
    {
      id: threadId,
      title,
      creator: by.name,
      status: "queued",
      settings: { input },
      runSettings: settings,
    },
    { type: "queued", message: `started by ${by.name}` },
  );
  await advanceHere(desk, threadId, "run");
}

/** Runs a stopped thread on here; an unknown one (a library orchestrator's) is registered first. */
export async function continueThread(
  desk: ReviewDeskHandle,
  threadId: string,
  by: Reviewer,
): Promise<void> {
  await registered(desk, threadId, by);
  await advanceHere(desk, threadId, "run");
}

/** The work left before a reviewer is asked, in words (continueThread does it). */
export async function workLeftBeforeReview(
  desk: ReviewDeskHandle,
  threadId: string,
  view: ThreadView,
): Promise<string | undefined> {
  if (view.kind === "completed") return undefined;
  if (view.kind === "stopped") {
    return view.next.length === 0
      ? "The run stopped before its first checkpoint; running it from its input."
      : `The run stopped with work left (${stepsLeft(view.next)}); running on from there.`;
  }
  const recorded = (await desk.store.unappliedDecisions(threadId)).find(
    (d) => d.interruptId === view.review.interruptId,
  );
  if (recorded === undefined) return undefined;
  return `This review was decided before the run stopped (${recorded.action} by ${recorded.reviewer}); applying it now.`;
}

/** A refusal (decided already, not pending, the action does not fit) is a DeskError. */
export async function decideAndApply(
  desk: ReviewDeskHandle,
  threadId: string,
  interruptId: string,
  decision: ReviewDecision,
): Promise<void> {
  const by = cliReviewer(decision.reviewer);
  // A thread in the middle of a run elsewhere is not advanced before the decision is recorded.
  const known = await registered(desk, threadId, by);
  if (known?.status !== "waiting" && known?.status !== "finished") {
    await desk.advanceThread(threadId);
  }
  const { reviewer: _who, ...request } = decision;
  await desk.decide(threadId, { interruptId, ...request }, by);
  await advanceHere(desk, threadId, "decided");
}

/** A desk refusal as the one message the command prints, ending with the refusal's own code. */
export function deskRefusal(error: unknown): CliError | undefined {
  if (!isDeskError(error)) return undefined;
  return new CliError(withErrorCode(error.message, error.code), { cause: error });
}

export type ProposalValues = GraphState<ReturnType<typeof buildProposalGraph>>;

/** Stopped: work left at the nodes `next` without a review. */
export type ThreadView =
  | { kind: "paused"; review: PendingReview; values: ProposalValues }
  | { kind: "completed"; values: ProposalValues }
  | { kind: "stopped"; next: readonly string[]; values: ProposalValues };

/** Where the thread is now (CHECKPOINT_NOT_FOUND / ForeignThreadError from the desk). */
export async function threadView(desk: ReviewDeskHandle, threadId: string): Promise<ThreadView> {
  const snapshot = await desk.threadSnapshot(threadId);
  const values = snapshot.values as ProposalValues;
  const [review] = reviewsOf(threadId, snapshot);
  if (review !== undefined) return { kind: "paused", review, values };
  const progress = threadProgress(snapshot);
  if (progress.kind === "finished") return { kind: "completed", values };
  const next =
    progress.kind === "work_left"
      ? progress.nodes
      : progress.kind === "paused"
        ? progress.interrupts.map((i) => i.node)
        : [];
  return { kind: "stopped", next, values };
}
