/**
 * A full proposal run (every stage of config/proposal.json, each reviewed and approved) under a
 * ReviewOrchestrator on a SQLite file, crashed at EVERY checkpoint write in turn: for N = 1 … the
 * number of writes an uninterrupted run makes, the process "dies" at the Nth `put`/`putWrites`
 * (CrashingSaver: nothing from that write on reaches the file, and the model stops answering).
 * A new process then opens the same file with a fresh checkpointer and graph and takes the
 * library's recovery path: the review the thread waits for is decided, a thread with work left is
 * run on with continueThread, a thread that never saved a checkpoint is started again. Each time
 * the run must end where the uninterrupted run ended: every stage approved with the same content
 * and scores, every review reached and decided exactly once, and "completed" only when the
 * checkpoint has nothing left to run or apply.
 */
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { describe, expect, it } from "vitest";
import {
  buildProposalGraph,
  loadProposalConfig,
  proposalStages,
} from "../../src/graph/proposalGraph.js";
import type { OverallProposalStateType } from "../../src/graph/state.js";
import { isThreadNotFoundError } from "../../src/orchestrator/errors.js";
import {
  ReviewOrchestrator,
  type ThreadOutcome,
} from "../../src/orchestrator/reviewOrchestrator.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { proposalResponder } from "../graph/helpers.js";
import { STAGE_IDS } from "../proposalStages.js";
import {
  CrashingSaver,
  deadResponder,
  proposalEndState,
  releaseDeadLocks,
} from "./crashingSaver.js";
import { checkpointFilePerTest } from "./helpers.js";

const SECTIONS = loadProposalConfig();
const STAGES = proposalStages(SECTIONS);
const THREAD = "crash-every-write";
const INPUT = {
  rfpDocument:
    "Marrow Valley Water Trust — Drought Readiness Grants 2027. Up to USD 90,000 over 18 months for rural water cooperatives; proposals are scored on need, method, cost and schedule.",
  applicantInput:
    "Upper Marrow Cooperative, 310 member households, rebuilt two storage tanks in 2025 with volunteer crews.",
};

type Outcome = ThreadOutcome<OverallProposalStateType>;

interface Process {
  saver: CrashingSaver;
  orchestrator: ReviewOrchestrator<ReturnType<typeof buildProposalGraph>>;
}

/** A "process": the saver on the file (dying at write `crashAt`), the model, the orchestrator. */
function openProcess(path: string, crashAt: number): Process {
  const saver = new CrashingSaver(path, crashAt);
  const model = new ScriptedChatModel({
    responder: deadResponder(() => saver, proposalResponder()),
  });
  const orchestrator = new ReviewOrchestrator({
    graph: buildProposalGraph({ model, sections: SECTIONS }),
    checkpointer: saver,
  });
  return { saver, orchestrator };
}

async function closeProcess(process: Process): Promise<void> {
  await process.orchestrator.close();
  process.saver.close();
}

/** Approves every review until the run ends. */
async function approveToEnd(process: Process, outcome: Outcome): Promise<Outcome> {
  let current = outcome;
  while (current.state === "paused" && current.review !== undefined) {
    current = await process.orchestrator.submitDecision(THREAD, current.review.interruptId, {
      action: "approve",
      reviewer: "crash-test",
    });
  }
  return current;
}

/** The whole run as a user drives it: start, then approve every review. */
async function fullRun(process: Process): Promise<Outcome> {
  return approveToEnd(process, await process.orchestrator.start(INPUT, { threadId: THREAD }));
}

/**
 * The library's recovery after a crash: decide the review the thread waits for; run a thread with
 * work left on; start a thread that has no checkpoint again.
 */
async function recover(process: Process): Promise<Outcome> {
  const { orchestrator } = process;
  let outcome: Outcome;
  try {
    const review = await orchestrator.getReview(THREAD);
    outcome =
      review === undefined
        ? await orchestrator.continueThread(THREAD)
        : {
            threadId: THREAD,
            state: "paused",
            review,
            values: await orchestrator.getState(THREAD),
          };
  } catch (error) {
    if (!isThreadNotFoundError(error)) throw error;
    outcome = await orchestrator.start(INPUT, { threadId: THREAD });
  }
  return approveToEnd(process, outcome);
}

function endState(values: OverallProposalStateType) {
  return proposalEndState(values, STAGES);
}

/** The latest checkpoint's pending writes, read by a saver of its own. */
async function pendingWritesOnFile(path: string): Promise<number> {
  const saver = SqliteSaver.fromConnString(path);
  try {
    const tuple = await saver.getTuple({ configurable: { thread_id: THREAD } });
    return tuple?.pendingWrites?.length ?? -1;
  } finally {
    (saver.db as { close(): void }).close();
  }
}

describe("a proposal run crashed at every checkpoint write", () => {
  const file = checkpointFilePerTest();

  it("reaches the uninterrupted run's end through the orchestrator's recovery, whatever write it died at", async () => {
    // The uninterrupted run: how many writes it makes, and where it ends.
    const clean = openProcess(file.sqlitePath, 0);
    const expected = await fullRun(clean);
    const total = clean.saver.writes;
    await closeProcess(clean);
    expect(expected.state).toBe("completed");
    const expectedEnd = endState(expected.values);
    expect(expectedEnd.reviews).toEqual(STAGE_IDS.map((id) => `${id}:approve`));
    expect(expectedEnd.stages.every((s) => s.status === "approved")).toBe(true);
    expect(total).toBeGreaterThan(STAGE_IDS.length * 8);

    const crashedAt: number[] = [];
    for (let n = 1; n <= total + 1; n += 1) {
      const path = `${file.sqlitePath}.${n}`;
      const dying = openProcess(path, n);
      const run = fullRun(dying).then(() => "finished" as const);
      run.catch(() => undefined);
      const how = await Promise.race([run, dying.saver.crashed.then(() => "crashed" as const)]);
      // Writes issued before the crash complete before the "process" is gone.
      await new Promise((resolve) => setImmediate(resolve));
      if (how === "finished") {
        // Only a run asked to die after its last write finishes.
        expect(n).toBe(total + 1);
        await closeProcess(dying);
        break;
      }
      crashedAt.push(n);
      await closeProcess(dying);
      releaseDeadLocks(path);

      const next = openProcess(path, 0);
      const outcome = await recover(next);
      await closeProcess(next);
      expect({ n, state: outcome.state }).toEqual({ n, state: "completed" });
      expect({ n, end: endState(outcome.values) }).toEqual({ n, end: expectedEnd });
      // "completed" means nothing was left to run or apply.
      expect({ n, pending: await pendingWritesOnFile(path) }).toEqual({ n, pending: 0 });
    }
    expect(crashedAt).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  }, 600_000);
});
