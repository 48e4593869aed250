/**
 * The review desk's way (what `evalgate run`, `evalgate review` and `evalgate serve` do): a full
 * proposal run advanced by the desk's thread runner, every review approved through the desk, on
 * a SQLite file, crashed at EVERY checkpoint write in turn (CrashingSaver). After each crash the
 * file is recovered twice, each time by a new "process" on a copy of the file:
 *
 * - the command line's `run --thread` path: the thread's view (paused / completed / stopped with
 *   work left), the desk's continueThread for a stopped thread, decideAndApply for each review;
 * - the service's start-up recovery: a review desk that runs jobs finds the thread among the ones
 *   with work left, advances it, and each decision recorded then is applied by a job.
 *
 * Both must reach the uninterrupted run's end: every stage approved with the same content and
 * scores, every review decided exactly once, "completed"/"finished" only when the checkpoint has
 * nothing left to run or apply.
 */
import { copyFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliContext } from "../../src/cli/context.js";
import {
  decideAndApply,
  openCliDesk,
  type ThreadView,
  threadView,
} from "../../src/cli/review/deskPath.js";
import { planRun } from "../../src/cli/review/runPlan.js";
import { openThread } from "../../src/cli/review/runThread.js";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import { proposalStages } from "../../src/graph/proposalGraph.js";
import type { OverallProposalStateType } from "../../src/graph/state.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { STAGE_IDS } from "../proposalStages.js";
import { eventually } from "../service/realDesk.js";
import { proposalEndState, releaseDeadLocks } from "./crashingSaver.js";
import { fullDeskRun, modelFor, openDyingDesk, runUntilCrash, SECTIONS } from "./dyingDesk.js";
import { checkpointFilePerTest } from "./helpers.js";

const STAGES = proposalStages(SECTIONS);
const THREAD = "desk-crash-every-write";
const BY: Reviewer = { name: "crash-desk", role: "admin" };
const DESK_THREAD = {
  id: THREAD,
  by: BY,
  input: {
    rfpDocument:
      "Kestrel Coast Fund — Shoreline Schools 2027. Grants to USD 120,000 for coastal schools that train pupils in storm preparedness; scored on reach, method, cost and timing.",
    applicantInput:
      "Kestrel Learning Network, 14 member schools, ran storm drills for 2,300 pupils in 2025.",
  },
};

async function stateOf(path: string): Promise<OverallProposalStateType> {
  const model = modelFor();
  const desk = await openCliDesk({
    store: { kind: "sqlite", path },
    env: {},
    cwd: dirname(path),
    model,
  });
  try {
    return (await threadView(desk, THREAD)).values;
  } finally {
    await desk.close();
  }
}

/**
 * The command line's `run --thread`: its plan and its way into the thread (openThread: a stopped
 * run runs on, a recorded decision is applied, a thread without a checkpoint runs from its
 * input), then every review approved as `run` applies an answer (decideAndApply).
 */
async function recoverLikeRunCommand(path: string): Promise<ThreadView["kind"]> {
  const output = { write: () => true };
  const context = createCliContext({ stdout: output, stderr: output, env: {}, cwd: dirname(path) });
  const options = { thread: THREAD, db: path };
  const plan = await planRun(undefined, options, context);
  const model = modelFor();
  const where = { store: plan.store, env: {}, cwd: dirname(path), model };
  const desk = await openCliDesk(where);
  try {
    let { view } = await openThread(undefined, plan, { desk }, options, context);
    while (view.kind === "paused") {
      await decideAndApply(desk, THREAD, view.review.interruptId, { action: "approve" });
      view = await threadView(desk, THREAD);
    }
    return view.kind;
  } finally {
    await desk.close();
  }
}

/** Waits for the desk's jobs to leave the thread at a review, finished or failed. */
async function settled(desk: ReviewDeskHandle) {
  return eventually("the thread to settle", async () => {
    const thread = await desk.store.thread(THREAD);
    const pending = await desk.store.pendingOf(THREAD);
    const unapplied = await desk.store.unappliedDecisions(THREAD);
    if (thread === undefined || unapplied.length > 0) return undefined;
    if (thread.status === "waiting" && pending.length > 0)
      return { status: thread.status, pending };
    if (thread.status === "finished" || thread.status === "failed")
      return { status: thread.status, pending };
    return undefined;
  });
}

/** The service's start-up recovery, then every review approved through the desk's jobs. */
async function recoverLikeService(path: string): Promise<string> {
  const desk = await createReviewDesk({
    sqlitePath: path,
    model: modelFor(),
    sections: SECTIONS,
  });
  try {
    let now = await settled(desk);
    while (now.status === "waiting") {
      const [row] = now.pending;
      if (row === undefined) break;
      await desk.decide(THREAD, { interruptId: row.interruptId, action: "approve" }, BY);
      now = await settled(desk);
    }
    const status = await desk.threadStatus(THREAD, BY);
    return status.status;
  } finally {
    await desk.close();
  }
}

function endState(values: OverallProposalStateType) {
  return proposalEndState(values, STAGES);
}

describe("a desk-run proposal crashed at every checkpoint write", () => {
  const file = checkpointFilePerTest();

  it("reaches the uninterrupted run's end through `run --thread` and through the service's start-up recovery", async () => {
    const clean = await openDyingDesk(file.sqlitePath, 0);
    await fullDeskRun(clean, DESK_THREAD);
    const total = clean.saver.writes;
    await clean.close();
    const expected = endState(await stateOf(file.sqlitePath));
    expect(expected.reviews).toEqual(STAGE_IDS.map((id) => `${id}:approve`));
    expect(expected.stages.every((s) => s.status === "approved")).toBe(true);

    const crashedAt: number[] = [];
    for (let n = 1; n <= total + 1; n += 1) {
      const path = `${file.sqlitePath}.${n}`;
      const dying = await openDyingDesk(path, n);
      const how = await runUntilCrash(dying, fullDeskRun(dying, DESK_THREAD));
      if (how === "finished") {
        expect(n).toBe(total + 1);
        break;
      }
      crashedAt.push(n);
      releaseDeadLocks(path);
      const copy = `${path}.service`;
      copyFileSync(path, copy);

      expect({ n, cli: await recoverLikeRunCommand(path) }).toEqual({ n, cli: "completed" });
      expect({ n, end: endState(await stateOf(path)) }).toEqual({ n, end: expected });

      expect({ n, service: await recoverLikeService(copy) }).toEqual({ n, service: "finished" });
      expect({ n, end: endState(await stateOf(copy)) }).toEqual({ n, end: expected });
    }
    expect(crashedAt).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  }, 900_000);
});
