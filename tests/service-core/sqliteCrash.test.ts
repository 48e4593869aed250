/**
 * Kill -9 on SQLite: a desk process killed right after it accepted a decision, or killed after
 * recording one before any job could apply it, is restarted on the same file; the new process
 * finds the decision and applies it, once.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { addReviewer, MODEL, nextReview, RFP } from "./helpers.js";
import { type Replica, startReplica } from "./replicas.js";

describe("a desk process killed around a decision, on SQLite", () => {
  let server: OllamaServer;
  let temp: ReturnType<typeof tempDir>;
  let sqlite: string;
  let observer: ReviewDeskHandle;
  const replicas: Replica[] = [];
  const ana: Reviewer = { name: "ana", role: "reviewer" };

  beforeEach(async () => {
    server = await startOllamaServer({ models: [MODEL], responder: ollamaProposalResponder(0.85) });
    temp = tempDir("evalgate-desk-crash-");
    sqlite = join(temp.dir, "checkpoints.sqlite");
    // Reads only: runs no job, so every step below is taken by a worker process.
    observer = await createReviewDesk({ sqlitePath: sqlite, env: {}, jobs: { run: false } });
    await addReviewer(observer.store, "ana");
  });
  afterEach(async () => {
    await Promise.all(replicas.splice(0).map((r) => r.kill()));
    await observer.close();
    await server.close();
    temp.remove();
  });

  async function firstReview() {
    const worker = startReplica(sqlite, server);
    replicas.push(worker);
    await worker.ready;
    const started = await worker.request({ op: "start", by: ana, rfp: RFP });
    if (!("ok" in started)) throw new Error(`start refused: ${JSON.stringify(started)}`);
    const threadId = started.ok.threadId as string;
    return { worker, threadId, review: await nextReview(observer, threadId, ana) };
  }

  async function expectAppliedOnce(threadId: string) {
    const status = await observer.threadStatus(threadId, ana);
    expect(status.decisions.map((d) => [d.stage, d.appliedAt !== undefined])).toEqual([
      ["research", true],
    ]);
    expect(status.stages.slice(0, 2).map((s) => s.status)).toEqual(["approved", "awaiting_review"]);
  }

  /** Sends an approval of the review to the replica, sees it accepted, and kills the replica. */
  async function approveThenKill(replica: Replica, threadId: string, interruptId: string) {
    const reply = await replica.request({
      op: "decide",
      by: ana,
      threadId,
      request: { interruptId, action: "approve" },
    });
    expect("ok" in reply).toBe(true);
    await replica.kill();
  }

  /** A new replica on the file: the thread moves on to the solution's review, applied once. */
  async function restartToNextReview(threadId: string, interruptId: string) {
    replicas.push(startReplica(sqlite, server));
    const next = await nextReview(observer, threadId, ana, interruptId);
    expect(next.stage).toBe("solution");
    await expectAppliedOnce(threadId);
  }

  it("applies a decision accepted just before the kill after a restart", async () => {
    const { worker, threadId, review } = await firstReview();
    await approveThenKill(worker, threadId, review.interruptId);

    await restartToNextReview(threadId, review.interruptId);
  }, 180_000);

  it("applies a decision recorded before any job ran, once, after a kill and restart", async () => {
    const { worker, threadId, review } = await firstReview();
    await worker.stop();
    // A process that records decisions and runs no job: killed between "recorded" and "applied".
    const recorder = startReplica(sqlite, server, false);
    replicas.push(recorder);
    await recorder.ready;
    await approveThenKill(recorder, threadId, review.interruptId);
    const waiting = await observer.threadStatus(threadId, ana);
    expect(waiting.decisions.map((d) => d.appliedAt)).toEqual([undefined]);
    expect((await observer.listReviews(ana, { limit: 10 })).items).toEqual([]);

    await restartToNextReview(threadId, review.interruptId);
  }, 180_000);
});
