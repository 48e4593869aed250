/**
 * Ctrl-C while `run` or `review` runs a thread: the thread is saved and the command says how to go
 * on (exit 130).
 */
import type { CliContext } from "../context.js";
import { EXIT_CANCELLED } from "../exitCodes.js";
import { type HintContext, runThreadCommand } from "./hints.js";

export interface CtrlCWatch {
  /** After Ctrl-C: prints how to go on (unless `hinted`), sets exit 130 and returns true. */
  finish(options?: { hinted?: boolean }): boolean;
  close(): void;
}

/** Listens for the command's Ctrl-C (the context's signal) while thread `threadId` runs. */
export function watchCtrlC(context: CliContext, at: HintContext, threadId: string): CtrlCWatch {
  const { signal } = context;
  const onStop = () => {
    context.stderr.write(
      `\nStopping: the model call under way is cancelled; thread ${threadId} is saved at its last finished step (Ctrl-C again ends at once).\n`,
    );
  };
  signal?.addEventListener("abort", onStop, { once: true });
  let finished = false;
  return {
    finish(options = {}) {
      if (signal?.aborted !== true) return false;
      if (!finished && options.hinted !== true) {
        context.stdout.write(`\nGo on with it later:\n  ${runThreadCommand(threadId, at)}\n`);
      }
      finished = true;
      context.exitCode = EXIT_CANCELLED;
      return true;
    },
    close() {
      signal?.removeEventListener("abort", onStop);
    },
  };
}
