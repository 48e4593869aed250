/**
 * The review desk's pieces (store, graph runtime, thread runner, decisions) over a CrashingSaver:
 * a "process" that runs a proposal thread the way `evalgate run` and `evalgate serve` do and dies
 * at a chosen checkpoint write. The model is the scripted writer and judge, silent once the saver
 * died.
 */

import type { DeskContext } from "../../src/desk/actions.js";
import { decide } from "../../src/desk/decide.js";
import { compileProposalGraph } from "../../src/desk/proposalRuntime.js";
import { loadProposalConfig } from "../../src/graph/proposalGraph.js";
import { createChatModel, type JudgeModel } from "../../src/llm/chatModel.js";
import { InProcessJobQueue } from "../../src/orchestrator/jobs/jobQueue.js";
import { createThreadRunner } from "../../src/orchestrator/threadRunner.js";
import { openReviewStore } from "../../src/store/index.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { proposalResponder } from "../graph/helpers.js";
import { CrashingSaver, type CrashPoint, deadResponder } from "./crashingSaver.js";

export const SECTIONS = loadProposalConfig();

/** A judge and writer that stops answering once `saver` died (never, without one). */
export function modelFor(saver: () => CrashingSaver | undefined = () => undefined): JudgeModel {
  const scripted = new ScriptedChatModel({ responder: deadResponder(saver, proposalResponder()) });
  return createChatModel(scripted, { maxRetries: 0 });
}

/** The desk's pieces over a saver that dies at `crashAt`. */
export async function openDyingDesk(path: string, crashAt: CrashPoint) {
  const saver = new CrashingSaver(path, crashAt);
  const store = await openReviewStore({ sqlitePath: path });
  const runtime = compileProposalGraph(saver, { model: modelFor(() => saver), sections: SECTIONS });
  const runner = createThreadRunner(store, runtime);
  const ctx: DeskContext = {
    kind: "sqlite",
    store,
    checkpointer: { saver, kind: "sqlite", location: path, close: async () => saver.close() },
    runtime,
    runner,
    queue: new InProcessJobQueue(),
    onError: () => undefined,
    maxRevisions: undefined,
  };
  return {
    ctx,
    saver,
    /** Lets the writes issued before the crash land, then closes the dead process's connections. */
    async close() {
      await new Promise((resolve) => setImmediate(resolve));
      await store.close();
      saver.close();
    },
  };
}

export type DyingDesk = Awaited<ReturnType<typeof openDyingDesk>>;

export interface DeskThread {
  id: string;
  input: Record<string, unknown>;
  by: Reviewer;
}

/** The run as `evalgate run` makes it: the thread recorded, advanced, each review approved. */
export async function fullDeskRun({ ctx }: DyingDesk, thread: DeskThread): Promise<void> {
  await ctx.store.createThread(
    {
      id: thread.id,
      title: thread.id,
      creator: thread.by.name,
      status: "queued",
      settings: { input: thread.input },
    },
    { type: "queued", message: "started by the test" },
  );
  let outcome = await ctx.runner.advance(thread.id);
  while (outcome === "waiting") {
    const [row] = await ctx.store.pendingOf(thread.id);
    if (row === undefined) throw new Error("waiting without a pending review");
    await decide(ctx, thread.id, { interruptId: row.interruptId, action: "approve" }, thread.by);
    outcome = await ctx.runner.advance(thread.id);
  }
  if (outcome !== "finished") throw new Error(`the run ended ${outcome}`);
}

/**
 * Runs `run` until it finishes or the saver dies; then lets the dead process go (its writes issued
 * before the crash land, its connections close).
 */
export async function runUntilCrash(dying: DyingDesk, run: Promise<void>) {
  const finished = run.then(() => "finished" as const);
  finished.catch(() => undefined);
  const how = await Promise.race([finished, dying.saver.crashed.then(() => "crashed" as const)]);
  await dying.close();
  return how;
}
