import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { CheckpointRetention } from "../../src/orchestrator/checkpointRetention.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { checkpointFilePerTest, researchGraph } from "./helpers.js";

function rowsOf(sqlitePath: string, threadId: string) {
  const db = new Database(sqlitePath, { readonly: true });
  try {
    const count = (table: string) =>
      (
        db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE thread_id = ?`).get(threadId) as {
          n: number;
        }
      ).n;
    return { checkpoints: count("checkpoints"), writes: count("writes") };
  } finally {
    db.close();
  }
}

describe("checkpoint retention", () => {
  const file = checkpointFilePerTest();
  const { open } = file;

  /** Runs one thread through a revise and an approve to its end under the retention given. */
  async function finishedThread(threadId: string, retention: CheckpointRetention) {
    const { graph } = researchGraph();
    const o = new ReviewOrchestrator({
      graph,
      checkpointerOptions: { sqlitePath: file.sqlitePath, env: {} },
    });
    const pruning = new ReviewOrchestrator({
      graph,
      checkpointerOptions: { sqlitePath: file.sqlitePath, env: {} },
      retention,
    });
    open.push(o, pruning);
    const started = await o.start({}, { threadId });
    const revised = await o.submitDecision(threadId, started.review?.interruptId ?? "", {
      action: "revise",
      feedback: "Name the sources.",
      reviewer: "ana",
    });
    const before = rowsOf(file.sqlitePath, threadId);
    const done = await pruning.submitDecision(threadId, revised.review?.interruptId ?? "", {
      action: "approve",
      reviewer: "ben",
    });
    expect(done.state).toBe("completed");
    return { before, after: rowsOf(file.sqlitePath, threadId), o };
  }

  it("latest: a finished thread keeps one checkpoint, with its decisions and result readable", async () => {
    const { before, after, o } = await finishedThread("pruned", "latest");
    expect(before.checkpoints).toBeGreaterThan(5);
    expect(after).toEqual({ checkpoints: 1, writes: 0 });

    const state = await o.getState("pruned");
    expect(state.reviewHistory.map((d) => [d.action, d.reviewer])).toEqual([
      ["revise", "ana"],
      ["approve", "ben"],
    ]);
    expect(state.researchStatus).toBe("approved");
    expect(state.researchEvaluation?.criteria).toHaveLength(5);
    expect(state.reviewHistory[1]?.evaluation?.overallScore).toBeCloseTo(0.85, 5);
  });

  it("all (the default): every checkpoint is kept", async () => {
    const { before, after } = await finishedThread("kept", "all");
    expect(after.checkpoints).toBeGreaterThan(before.checkpoints);
  });
});
