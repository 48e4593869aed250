/** `evalgate run`: writes a proposal, asking the reviewer at each review; quitting pauses it. */
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { ReviewDeskHandle } from "../../desk/createReviewDesk.js";
import { isDeskError } from "../../desk/errors.js";
import { stageContent } from "../../graph/reviewDecisions.js";
import { stepsLeft } from "../../graph/threadProgress.js";
import {
  type CliContext,
  displayPath,
  EXIT_CANCELLED,
  EXIT_OK,
  type StdinInput,
  terminalWidth,
} from "../context.js";
import { CliError, OutputFileError } from "../errors.js";
import {
  defaultProposalPath,
  exportThreadTraces,
  fileHolding,
  formatOfPath,
  refuseExistingOut,
  refuseFolder,
  renderProposal,
  writeNewFile,
} from "../outputFile.js";
import { readyRunModels, stoppedByCtrlC } from "../panelJudges.js";
import type { StageProgressReporter } from "../progress.js";
import {
  cliReviewer,
  continueThread,
  decideAndApply,
  openCliDesk,
  type ThreadView,
  threadView,
} from "../review/deskPath.js";
import { renderReview, renderRunSummary } from "../review/display.js";
import { createLineReader } from "../review/input.js";
import { askDecision } from "../review/interactive.js";
import { checkedReviewerArg, checkedThreadArg } from "../review/reviewArgs.js";
import { type RunCommandOptions as PlannedRunOptions, planRun } from "../review/runPlan.js";
import { openThread } from "../review/runThread.js";
import { whileThreadRuns } from "../review/stopping.js";
import type { CheckpointStore } from "../review/store.js";
import { resumeHint, showCommand } from "../review/store.js";

export interface RunCommandOptions extends PlannedRunOptions {
  /** --few-shot: the store's corrections in every evaluation, not only where a catalog asks. */
  fewShot?: boolean;
}

interface Loop {
  desk: ReviewDeskHandle;
  threadId: string;
  store: CheckpointStore;
  context: CliContext;
  input: StdinInput;
  reviewer: string | undefined;
  progress: StageProgressReporter;
}

/** Desk refusals after which the reviewer is asked again (the review may have moved on). */
const NOT_TAKEN: ReadonlySet<string> = new Set([
  "INVALID_INPUT",
  "ALREADY_DECIDED",
  "REVIEW_NOT_PENDING",
]);

/** Until the run completes (true) or the reviewer stops (false). */
async function reviewUntilDone(start: ThreadView, loop: Loop): Promise<boolean> {
  const { desk, threadId, store, context } = loop;
  const out = context.stdout;
  const lines = createLineReader(loop.input.stream, context.signal);
  try {
    let view = start;
    while (view.kind === "paused") {
      const { review, values } = view;
      const stage = desk.stages.find((s) => s.id === review.contentId);
      const content = stage === undefined ? undefined : stageContent(values, stage);
      loop.progress.finish();
      out.write(
        `\n${renderReview(review, content, { width: terminalWidth(context.stdout, 100) })}\n`,
      );
      const answer = await askDecision(review, content, stage, {
        lines,
        out,
        cwd: context.cwd,
        env: context.env,
        terminal: loop.input.terminal,
        ...(loop.reviewer === undefined ? {} : { reviewer: loop.reviewer }),
      });
      if (answer.kind === "quit" || context.signal?.aborted === true) {
        if (
          answer.kind === "quit" &&
          answer.why === "end-of-input" &&
          context.signal?.aborted !== true
        ) {
          out.write("\nThe input ended before the run finished.\n");
        }
        out.write(`\n${resumeHint(review, { store, cwd: context.cwd, env: context.env })}`);
        context.exitCode = context.signal?.aborted === true ? EXIT_CANCELLED : EXIT_OK;
        return false;
      }
      context.stderr.write(`${answer.decision.action}: running on to the next review…\n`);
      try {
        await decideAndApply(loop.desk, threadId, review.interruptId, answer.decision);
        view = await threadView(desk, threadId);
      } catch (error) {
        if (!isDeskError(error) || !NOT_TAKEN.has(error.code)) throw error;
        out.write(`The decision was not accepted: ${error.message}\n`);
        // Decided elsewhere meanwhile: that decision is applied, and the next review shown.
        if (error.code !== "INVALID_INPUT") {
          await continueThread(loop.desk, threadId, cliReviewer(loop.reviewer));
          view = await threadView(desk, threadId);
        }
      }
    }
    if (view.kind === "stopped") {
      throw new CliError(
        `thread ${threadId} stopped with work left (${stepsLeft(view.next)}) without a review`,
      );
    }
    loop.progress.finish();
    out.write(
      `\nRun completed (thread ${threadId}).\n\n${renderRunSummary(view.values, desk.stages)}`,
    );
    return true;
  } finally {
    lines.close();
  }
}

/**
 * The finished run's proposal, written to --out or `proposal-<thread>.md`, and where it went; a
 * default-named file (or numbered one) that holds this very proposal already is named instead.
 */
async function writeRunProposal(
  desk: ReviewDeskHandle,
  threadId: string,
  options: RunCommandOptions,
  context: CliContext,
  store: CheckpointStore,
): Promise<void> {
  const { cwd } = context;
  const document = await desk.threadProposal(threadId, cliReviewer(options.reviewer));
  const asked =
    options.out === undefined ? defaultProposalPath(threadId, cwd) : resolve(cwd, options.out);
  const text = await renderProposal(document, formatOfPath(asked));
  const at = { store, cwd, env: context.env };
  const again = `\`${showCommand(threadId, at)}\` prints it again`;
  // Asked again about a finished run: the file that holds its proposal already is named.
  const held = options.out === undefined ? await fileHolding(asked, text) : undefined;
  if (held !== undefined) {
    context.stdout.write(
      `\nThe proposal is in ${displayPath(held, cwd)}, as written before; ${again}.\n`,
    );
    return;
  }
  const written = await writeNewFile(asked, text, "next-free").catch((error: unknown) => {
    if (!(error instanceof OutputFileError)) throw error;
    const kept = `the run is complete and kept: \`${showCommand(threadId, at)} --out <file>\` writes its proposal`;
    throw new OutputFileError(displayPath(error.path, cwd), `${error.reason}; ${kept}`, {
      cause: error,
    });
  });
  const shown = displayPath(written, cwd);
  const note =
    written === asked ? "" : ` (${displayPath(asked, cwd)} exists already, and is left as it is)`;
  context.stdout.write(`\nThe proposal is in ${shown}${note}; ${again}.\n`);
}

export async function runProposal(
  rfpFile: string | undefined,
  options: RunCommandOptions,
  context: CliContext,
  input: StdinInput,
): Promise<void> {
  const { cwd, env } = context;
  if (options.thread !== undefined) checkedThreadArg(options.thread);
  checkedReviewerArg(options.reviewer);
  // Before anything runs: the proposal's file is never overwritten.
  if (options.out !== undefined) refuseExistingOut(options.out, cwd);
  if (options.trace !== undefined) refuseFolder("--trace", options.trace, cwd, "calls.jsonl");
  const planned = await planRun(rfpFile, options, context);
  // Before anything is stored: no thread (nor checkpoint file) for a model that is not there.
  const { target, model, judging } = stoppedByCtrlC(
    await readyRunModels(planned.target, planned.panel, options.timeout, context),
    context.signal,
  );
  const plan = { ...planned, target };
  const { store, maxRevisions } = plan;
  const newThreadId = randomUUID();
  let desk: ReviewDeskHandle | undefined;
  const at = { store, cwd, env };
  await whileThreadRuns(context, at, options.thread ?? newThreadId, async (ctrlC) => {
    const { overrideSettings, cache, fewShot } = options;
    const { progress } = ctrlC;
    const { onProgress } = progress;
    const settings = { store, env, cwd, model, maxRevisions, judging, onProgress };
    const stopping = context.signal;
    desk = await openCliDesk({ ...settings, overrideSettings, cache, fewShot, stopping });
    const withId = { ...options, newThreadId };
    const { threadId, view } = await openThread(rfpFile, plan, { desk }, withId, context);
    const { reviewer } = options;
    const loop = { desk, threadId, store, context, input, reviewer, progress };
    const completed = await reviewUntilDone(view, loop);
    // Stopped at a review: the run printed how to go on already.
    if (ctrlC.finish({ hinted: true })) return;
    if (completed) await writeRunProposal(desk, threadId, options, context, store);
    if (options.trace !== undefined) {
      const reviewer = cliReviewer(options.reviewer);
      await exportThreadTraces(desk, threadId, reviewer, options.trace, context);
    }
  }).finally(() => desk?.close());
}
