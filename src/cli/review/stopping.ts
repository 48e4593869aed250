/**
 * Ctrl-C while `run` or `review` runs a thread: the thread is saved and the command says how to go
 * on (exit 130).
 */
import type { CliContext } from "../context.js";
import { EXIT_CANCELLED } from "../context.js";
import { createStageProgressReporter, type StageProgressReporter } from "../progress.js";
import { type HintContext, runThreadCommand } from "./store.js";

export interface CtrlCWatch {
  /** The run's progress line, cleared when the command ends. */
  progress: StageProgressReporter;
  /** After Ctrl-C: prints how to go on (unless `hinted`), sets exit 130 and returns true. */
  finish(options?: { hinted?: boolean }): boolean;
}

/**
 * Runs `body` while thread `threadId` may run, listening for the command's Ctrl-C (the context's
 * signal): an error after Ctrl-C is the stop, not a failure (the thread stays where it stands).
 */
export async function whileThreadRuns(
  context: CliContext,
  at: HintContext,
  threadId: string,
  body: (watch: CtrlCWatch) => Promise<void>,
): Promise<void> {
  const { signal } = context;
  const onStop = () => {
    context.stderr.write(
      `\nStopping: the model call under way is cancelled; thread ${threadId} is saved at its last finished step (Ctrl-C again ends at once).\n`,
    );
  };
  signal?.addEventListener("abort", onStop, { once: true });
  let finished = false;
  const progress = createStageProgressReporter(context.stderr);
  const watch: CtrlCWatch = {
    progress,
    finish(options = {}) {
      if (signal?.aborted !== true) return false;
      progress.finish();
      if (!finished && options.hinted !== true) {
        context.stdout.write(`\nGo on with it later:\n  ${runThreadCommand(threadId, at)}\n`);
      }
      finished = true;
      context.exitCode = EXIT_CANCELLED;
      return true;
    },
  };
  try {
    await body(watch);
  } catch (error) {
    progress.finish();
    if (!watch.finish()) throw error;
  } finally {
    signal?.removeEventListener("abort", onStop);
    progress.finish();
  }
}
