/** `evalgate review <thread> <action>`: decides the review a thread waits for, without prompts. */
import type { ReviewDeskHandle } from "../../desk/createReviewDesk.js";
import { isDeskError } from "../../desk/errors.js";
import { withErrorCode } from "../../errors.js";
import { REVIEW_ACTIONS, type ReviewAction, type ReviewDecision } from "../../graph/model.js";
import { stageContent } from "../../graph/reviewDecisions.js";
import { stepsLeft } from "../../graph/threadProgress.js";
import { isOrchestratorError, isThreadNotFoundError } from "../../orchestrator/errors.js";
import type { PendingReview } from "../../orchestrator/pendingReview.js";
import type { LinkPolicy } from "../../untrusted/regularFile.js";
import type { CliContext } from "../context.js";
import { CliError } from "../errors.js";
import { linkPolicyOf, readEditFile } from "../inputFiles.js";
import { resolveModelTarget } from "../modelCheck.js";
import { readyRunModels, stoppedByCtrlC } from "../panelJudges.js";
import type { StageProgressReporter } from "../progress.js";
import { createStageProgressReporter } from "../progress.js";
import { correctionsFromOptions } from "../review/corrections.js";
import {
  cliReviewer,
  continueThread,
  decideAndApply,
  deskRefusal,
  openCliDesk,
  type ThreadView,
  threadView,
} from "../review/deskPath.js";
import { renderReview, renderRunSummary } from "../review/display.js";
import { checkedDecision, checkedReviewerArg, checkedThreadArg } from "../review/reviewArgs.js";
import type { ThreadRunFlags } from "../review/runPlan.js";
import { readThreadRecord, refuseChangedSettings } from "../review/settings.js";
import { whileThreadRuns } from "../review/stopping.js";
import {
  type CheckpointStore,
  describeStore,
  type HintContext,
  refuseMissingStore,
  reviewCommandHint,
  runThreadCommand,
  showCommand,
  storeOfFlags,
} from "../review/store.js";

export interface ReviewCommandOptions extends ThreadRunFlags {
  feedback?: string;
  contentFile?: string;
  comment?: string;
  /** `<criterion>=<value>`: scores the judge got wrong, on each criterion's own scale. */
  correct?: string[];
  /** `<criterion>=<text>`: why a corrected score is wrong. */
  note?: string[];
}

/** The decision the arguments describe; options that belong to another action are refused. */
export async function decisionFromOptions(
  action: string,
  options: ReviewCommandOptions,
  cwd: string,
  links: LinkPolicy = {},
): Promise<ReviewDecision> {
  if (!(REVIEW_ACTIONS as readonly string[]).includes(action)) {
    throw new CliError(`"${action}" is not a decision: use ${REVIEW_ACTIONS.join(", ")}`);
  }
  const chosen = action as ReviewAction;
  if (options.feedback !== undefined && chosen !== "revise") {
    throw new CliError(`--feedback goes with revise, not with ${chosen}`);
  }
  if (options.contentFile !== undefined && chosen !== "edit") {
    throw new CliError(`--content-file goes with edit, not with ${chosen}`);
  }
  const corrections = correctionsFromOptions(options.correct, options.note);
  if (corrections.length > 0 && chosen === "retry") {
    throw new CliError("--correct goes with approve, revise or edit: a retry judges again");
  }
  if (chosen === "revise" && !options.feedback?.trim()) {
    throw new CliError("revise needs --feedback <text> for the writer");
  }
  if (chosen === "edit" && options.contentFile === undefined) {
    throw new CliError("edit needs --content-file <file> with the new content");
  }
  const content =
    options.contentFile === undefined
      ? undefined
      : await readEditFile("--content-file", options.contentFile, cwd, links);
  return checkedDecision({
    action: chosen,
    ...(options.reviewer === undefined ? {} : { reviewer: options.reviewer }),
    ...(options.comment === undefined ? {} : { comment: options.comment }),
    ...(corrections.length === 0 ? {} : { corrections }),
    ...(options.feedback === undefined ? {} : { feedback: options.feedback }),
    ...(content === undefined ? {} : { content }),
  });
}

function notWaiting(
  threadId: string,
  view: Exclude<ThreadView, { kind: "paused" }>,
  at: HintContext,
) {
  if (view.kind === "completed") {
    return new CliError(
      `thread ${threadId} is not waiting for a review: the run has completed; ` +
        `\`${showCommand(threadId, at)}\` prints its proposal`,
    );
  }
  return new CliError(
    `thread ${threadId} is not waiting for a review: the run stopped with work left (${stepsLeft(view.next)}); ` +
      `go on with it with \`${runThreadCommand(threadId, at)}\``,
  );
}

/** A refusal of the thread's engine as the one message the command prints, with its code. */
function refusalOf(error: unknown, threadId: string, where: string): unknown {
  if (isThreadNotFoundError(error)) {
    return new CliError(
      `no thread "${threadId}" in ${where} (evalgate reviews lists the paused ones)`,
    );
  }
  if (isOrchestratorError(error) || isDeskError(error)) {
    return new CliError(withErrorCode(error.message, error.code), { cause: error });
  }
  return error;
}

/**
 * A decision recorded before its process stopped stands: it is applied now, exactly once. When it is
 * not the one asked for now, the command ends with ALREADY_DECIDED.
 */
async function applyRecordedDecision(
  desk: ReviewDeskHandle,
  threadId: string,
  review: PendingReview,
  decision: ReviewDecision,
  context: CliContext,
): Promise<ThreadView | undefined> {
  const recorded = (await desk.store.unappliedDecisions(threadId)).find(
    (d) => d.interruptId === review.interruptId,
  );
  if (recorded === undefined) return undefined;
  const who = `${recorded.action} by ${recorded.reviewer}`;
  context.stderr.write(
    `${review.title} was decided before the process that decided it stopped (${who}); that decision is applied now.\n`,
  );
  await continueThread(desk, threadId, cliReviewer(decision.reviewer));
  const next = await threadView(desk, threadId);
  if (recorded.action === decision.action) return next;
  throw new CliError(
    withErrorCode(
      `${review.title} [${review.contentId}] was already decided (${who}) and that decision is applied; ${decision.action} was not recorded`,
      "ALREADY_DECIDED",
    ),
  );
}

/** Where the thread stands after a decision or a retry: its next review, or how the run ended. */
export function printThreadView(
  threadId: string,
  view: ThreadView,
  desk: ReviewDeskHandle,
  store: CheckpointStore,
  context: CliContext,
): void {
  const out = context.stdout;
  const at = { store, cwd: context.cwd, env: context.env };
  if (view.kind === "paused") {
    const next = view.review;
    const stage = desk.stages.find((s) => s.id === next.contentId);
    const content = stage === undefined ? undefined : stageContent(view.values, stage);
    out.write(`\nnext review\n\n${renderReview(next, content)}\nDecide with:\n`);
    out.write(reviewCommandHint(next, at));
  } else if (view.kind === "completed") {
    out.write(`completed\n\n${renderRunSummary(view.values, desk.stages)}`);
    out.write(`\nThe proposal: \`${showCommand(threadId, at)}\` (--out <file> to keep it).\n`);
  } else {
    out.write(`stopped with work left (${stepsLeft(view.next)})\n`);
  }
}

/**
 * The desk a command runs a stored thread on with: the thread's settings, the options given
 * winning, its models checked (and cancelled by Ctrl-C when `ctrlC`).
 */
export async function openThreadRunDesk(
  store: CheckpointStore,
  threadId: string,
  options: ThreadRunFlags,
  context: CliContext,
  progress: StageProgressReporter,
  ctrlC = false,
): Promise<ReviewDeskHandle> {
  const { env, cwd, stderr } = context;
  const stored = (await readThreadRecord(store, threadId, { cwd, stderr })).settings;
  const target = resolveModelTarget(options.model ?? stored?.model, env);
  const override = `use them from now on with \`evalgate run --thread ${threadId} --override-settings\``;
  refuseChangedSettings({ ...options, thread: threadId }, stored, target, override);
  const ready = await readyRunModels(target, stored?.panel, options.timeout, context);
  return openCliDesk({
    store,
    env,
    cwd,
    onProgress: progress.onProgress,
    ...(ctrlC ? { ...stoppedByCtrlC(ready, context.signal), stopping: context.signal } : ready),
    maxRevisions: options.maxRevisions ?? stored?.maxRevisions,
    cache: options.cache,
  });
}

export async function runReviewDecision(
  threadId: string,
  action: string,
  options: ReviewCommandOptions,
  context: CliContext,
): Promise<void> {
  const { cwd, env } = context;
  checkedThreadArg(threadId);
  const decision = await decisionFromOptions(action, options, cwd, linkPolicyOf(env));
  const store = storeOfFlags(options, env, cwd);
  const where = describeStore(store, cwd);
  refuseMissingStore(store, threadId, cwd);
  // The thread is read (and a wrong one refused) before any model is checked.
  const viewer = await openCliDesk({ store, env, cwd });
  let desk: ReviewDeskHandle | undefined;
  await whileThreadRuns(context, { store, cwd, env }, threadId, async (ctrlC) => {
    const { progress } = ctrlC;
    const refuse = (error: unknown) => Promise.reject(refusalOf(error, threadId, where));
    const view = await threadView(viewer, threadId).catch(refuse);
    if (view.kind !== "paused") throw notWaiting(threadId, view, { store, cwd, env });
    const { review } = view;
    if (!review.actions.includes(decision.action)) {
      throw new CliError(
        `${review.title} [${review.contentId}] (${review.type}) takes ` +
          `${review.actions.join(", ")} — not ${decision.action}`,
      );
    }
    // The decision runs the graph on (its models checked first); Ctrl-C stops it at its last step.
    const running = await openThreadRunDesk(store, threadId, options, context, progress, true);
    desk = running;
    const earlier = await applyRecordedDecision(running, threadId, review, decision, context);
    const next =
      earlier ??
      (await decideAndApply(running, threadId, review.interruptId, decision)
        .then(() => threadView(running, threadId))
        .catch(refuse));
    progress.finish();
    if (ctrlC.finish()) return;
    context.stdout.write(
      `decided ${decision.action} on ${review.title} [${review.contentId}], thread ${threadId}\n`,
    );
    printThreadView(threadId, next, running, store, context);
  }).finally(async () => {
    await desk?.close();
    await viewer.close();
  });
}

export async function runRetryThread(
  threadId: string,
  options: ReviewCommandOptions,
  context: CliContext,
): Promise<void> {
  const { cwd, env } = context;
  checkedThreadArg(threadId);
  checkedReviewerArg(options.reviewer);
  const store = storeOfFlags(options, env, cwd);
  refuseMissingStore(store, threadId, cwd);
  const progress = createStageProgressReporter(context.stderr);
  let desk: ReviewDeskHandle | undefined;
  try {
    desk = await openThreadRunDesk(store, threadId, options, context, progress);
    await desk.retryThread(threadId, cliReviewer(options.reviewer)).catch((error: unknown) => {
      throw deskRefusal(error) ?? error;
    });
    context.stdout.write(`retried thread ${threadId}\n`);
    await continueThread(desk, threadId, cliReviewer(options.reviewer));
    progress.finish();
    printThreadView(threadId, await threadView(desk, threadId), desk, store, context);
  } finally {
    progress.finish();
    await desk?.close();
  }
}
