/**
 * Checkpoint retention on the review desk (SQLite, jobs advanced in the test): a paused thread
 * keeps every checkpoint but only the latest one's writes (the others' outputs are in the
 * checkpoints after them); with retention `latest` a finished thread keeps one checkpoint and no
 * writes, and its decisions, results and statuses stay readable.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import type { CheckpointRetention } from "../../src/orchestrator/checkpointRetention.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { scriptedProposalResponder } from "../devserver/proposalResponder.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { tempDir } from "./helpers.js";

const admin: Reviewer = { name: "ana", role: "admin" };
const SECTIONS = [
  { id: "problem_statement", title: "Problem Statement", description: "The problem." },
];
const STAGES = ["research", "solution", "connection_pairs", "problem_statement"];

/** The thread's checkpoints, and its writes by whether they belong to its latest checkpoint. */
function rowsOf(sqlitePath: string, threadId: string) {
  const db = new Database(sqlitePath, { readonly: true });
  try {
    const count = (sql: string, ...ids: string[]) =>
      (db.prepare(sql).get(...ids) as { n: number }).n;
    const latest = "(SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = ?)";
    return {
      checkpoints: count("SELECT COUNT(*) AS n FROM checkpoints WHERE thread_id = ?", threadId),
      latestWrites: count(
        `SELECT COUNT(*) AS n FROM writes WHERE thread_id = ? AND checkpoint_id = ${latest}`,
        threadId,
        threadId,
      ),
      olderWrites: count(
        `SELECT COUNT(*) AS n FROM writes WHERE thread_id = ? AND checkpoint_id != ${latest}`,
        threadId,
        threadId,
      ),
    };
  } finally {
    db.close();
  }
}

describe("checkpoint retention on the review desk", () => {
  let temp: ReturnType<typeof tempDir>;
  let sqlitePath: string;
  let desk: ReviewDeskHandle | undefined;
  beforeEach(() => {
    temp = tempDir("evalgate-desk-retention-");
    sqlitePath = join(temp.dir, "checkpoints.sqlite");
  });
  afterEach(async () => {
    await desk?.close();
    temp.remove();
  });

  async function openDesk(retention: CheckpointRetention) {
    const model = createChatModel(
      new ScriptedChatModel({ responder: scriptedProposalResponder(0.85) }),
      { maxRetries: 0 },
    );
    desk = await createReviewDesk({
      ...{ sqlitePath, env: {}, model, retention },
      ...{ sections: SECTIONS, jobs: { run: false } },
    });
    return desk;
  }

  async function startThread(open: ReviewDeskHandle) {
    const threadId = randomUUID();
    await open.store.createThread(
      {
        ...{ id: threadId, title: "Retention", creator: admin.name, status: "queued" },
        settings: { input: { rfpDocument: "Calder Bay Community Foundation: flood resilience." } },
      },
      { type: "queued" },
    );
    expect(await open.advanceThread(threadId)).toBe("waiting");
    return threadId;
  }

  it("a paused thread keeps its checkpoints, and writes only beside the latest one", async () => {
    const open = await openDesk("all");
    const threadId = await startThread(open);
    const rows = rowsOf(sqlitePath, threadId);
    expect(rows.checkpoints).toBeGreaterThan(4);
    expect(rows.olderWrites).toBe(0);
    expect(rows.latestWrites).toBeGreaterThan(0); // the review's interrupt
    const review = await open.getReview(threadId, admin);
    expect(review.evaluation?.criteria).toHaveLength(5);
  });

  it("latest: a finished thread keeps one checkpoint; its decisions and results stay readable", async () => {
    const open = await openDesk("latest");
    const threadId = await startThread(open);
    let outcome: string = "waiting";
    for (const stage of STAGES) {
      expect(outcome).toBe("waiting");
      const [row] = await open.store.pendingOf(threadId);
      expect(row?.stage).toBe(stage);
      await open.decide(
        threadId,
        { interruptId: row?.interruptId ?? "", action: "approve" },
        admin,
      );
      outcome = await open.advanceThread(threadId);
    }
    expect(outcome).toBe("finished");
    expect(rowsOf(sqlitePath, threadId)).toEqual({
      checkpoints: 1,
      latestWrites: 0,
      olderWrites: 0,
    });

    const status = await open.threadStatus(threadId, admin);
    expect(status.status).toBe("finished");
    expect(status.decisions.map((d) => [d.action, d.reviewer])).toEqual(
      STAGES.map(() => ["approve", "ana"]),
    );
    expect(status.stages.map((s) => [s.stage, s.status])).toEqual(
      STAGES.map((s) => [s, "approved"]),
    );
    for (const stage of status.stages) {
      expect(stage.overallScore).toBeCloseTo(0.85, 5);
      expect(stage.evaluationId).toEqual(expect.any(String));
    }
  });
});
