/**
 * The CLI's way to a decision is the service's: the decision becomes a row (unique per thread and
 * interrupt, taken off the pending index in the same transaction) and a job-like step applies it
 * under the thread's lock — here, in this process, right away. So `run` and `review` beside a
 * running `evalgate serve`, or two terminals on one thread, cannot apply a decision twice.
 */
import { userInfo } from "node:os";
import { createReviewDesk, type ReviewDeskHandle } from "../../desk/createReviewDesk.js";
import { isDeskError } from "../../desk/errors.js";
import { withErrorCode } from "../../errors.js";
import type { ReviewDecision } from "../../graph/model.js";
import { ReviewerNameSchema } from "../../graph/reviewInput.js";
import type { JudgeModel } from "../../llm/chatModel.js";
import type { StageProgressListener } from "../../orchestrator/stageProgress.js";
import type { Reviewer } from "../../store/reviewers.js";
import { CliError } from "../errors.js";
import type { PanelJudging, RunModels } from "../panelJudges.js";
import { type CheckpointStore, storeConnection } from "./store.js";
import type { ThreadView } from "./threadView.js";

export interface CliDeskOptions {
  store: CheckpointStore;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  model?: JudgeModel;
  maxRevisions?: number;
  overrideSettings?: boolean;
  /** `false` (--no-cache): every criterion is asked of the model, none kept. */
  cache?: boolean;
  /** A panel of judges for every evaluation (the model still writes). */
  judging?: PanelJudging;
  /**
   * `true` (--few-shot): the reviewers' corrections kept in the store are shown to the judge as
   * few-shot examples in every evaluation; otherwise only where a stage's catalog turns them on.
   */
  fewShot?: boolean;
  /** Told which stage is being written or judged while the command runs a thread on. */
  onProgress?: StageProgressListener;
}

/** The evaluation nodes' options the command sets: the cache switch and the panel. */
function evaluationOptions(options: CliDeskOptions) {
  const evaluation = {
    ...(options.cache === false ? { cache: false as const } : {}),
    ...(options.judging === undefined
      ? {}
      : { judges: options.judging.judges, panel: options.judging.panel }),
  };
  return Object.keys(evaluation).length === 0 ? {} : { graph: { evaluation } };
}

/** The desk over the command's store; it runs no background jobs (the command advances threads). */
export function openCliDesk(options: CliDeskOptions): Promise<ReviewDeskHandle> {
  return createReviewDesk({
    ...storeConnection(options.store),
    env: options.env,
    cwd: options.cwd,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.maxRevisions === undefined ? {} : { maxRevisions: options.maxRevisions }),
    ...(options.overrideSettings === true ? { overrideSettings: true } : {}),
    ...evaluationOptions(options),
    ...(options.fewShot === true ? { fewShot: true } : {}),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    jobs: { run: false },
  });
}

/**
 * The desk of a command that runs a thread on (a decision, a retry): the checked models (the
 * writer and judge, the panel) and the thread's settings the command may override.
 */
export function openRunDesk(
  at: Pick<CliDeskOptions, "store" | "env" | "cwd" | "onProgress">,
  models: RunModels,
  settings: { maxRevisions?: number | undefined; cache?: boolean | undefined },
): Promise<ReviewDeskHandle> {
  return openCliDesk({
    ...at,
    model: models.model,
    ...(settings.maxRevisions === undefined ? {} : { maxRevisions: settings.maxRevisions }),
    ...(settings.cache === false ? { cache: false } : {}),
    ...(models.judging === undefined ? {} : { judging: models.judging }),
  });
}

/**
 * Who decides at the terminal: `--reviewer` (checked by the commands), else the system user when
 * it is a name the review boundary takes, else "cli"; the operator is trusted.
 */
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

/** Runs the thread on here, to its next review or its end; a failed run is one message. */
async function advanceHere(desk: ReviewDeskHandle, threadId: string): Promise<void> {
  if ((await desk.advanceThread(threadId)) === "busy") {
    throw new CliError(
      `thread ${threadId} is being advanced by another process (evalgate serve?); the decision is recorded and will be applied there`,
    );
  }
  const thread = await desk.store.thread(threadId);
  if (thread?.status === "failed") {
    throw new CliError(`thread ${threadId}: ${thread.error ?? "the run failed"}`);
  }
}

/**
 * Starts a thread with this id — its run settings written in the transaction that records it —
 * and runs it here to its first review (or its end).
 */
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
  await advanceHere(desk, threadId);
}

/**
 * Advances a thread stopped with work left, here: a thread the store does not know yet (started
 * before the index existed, or by a library orchestrator on the same file) is registered first.
 */
export async function continueThread(
  desk: ReviewDeskHandle,
  threadId: string,
  by: Reviewer,
): Promise<void> {
  await registered(desk, threadId, by);
  await advanceHere(desk, threadId);
}

/**
 * What a thread has left to do before a reviewer is asked anything, in words: work left in its
 * checkpoint (a run that stopped), or a decision recorded for the review it waits at and not yet
 * applied (the process applying it died). Undefined when nothing is left; continueThread does it.
 */
export async function workLeftBeforeReview(
  desk: ReviewDeskHandle,
  threadId: string,
  view: ThreadView,
): Promise<string | undefined> {
  if (view.kind === "completed") return undefined;
  if (view.kind === "stopped") {
    return view.next.length === 0
      ? "The run stopped before its first checkpoint; running it from its input."
      : `The run stopped with work left at ${view.next.join(", ")}; running on from there.`;
  }
  const recorded = (await desk.store.unappliedDecisions(threadId)).find(
    (d) => d.interruptId === view.review.interruptId,
  );
  if (recorded === undefined) return undefined;
  return `This review was decided before the run stopped (${recorded.action} by ${recorded.reviewer}); applying it now.`;
}

/**
 * Records the decision on the interrupt and applies it here. A refusal (someone decided it
 * already, it is not pending any more, the action or its fields do not fit) is a DeskError.
 */
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
  await advanceHere(desk, threadId);
}

/** A desk refusal as the one message the command prints, ending with the refusal's own code. */
export function deskRefusal(error: unknown): CliError | undefined {
  if (!isDeskError(error)) return undefined;
  return new CliError(withErrorCode(error.message, error.code), { cause: error });
}
