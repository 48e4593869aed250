/**
 * Two replicas of the review desk, each its own process with its own jobs, on one PostgreSQL,
 * against the Ollama-protocol server. The same decision sent to both at the same moment is
 * accepted once; the writer and the judge run once for the next stage; a replica killed right
 * after accepting a decision leaves the thread to the other, which applies the decision once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaChatRequest, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { addReviewer, MODEL, nextReview, RFP } from "./helpers.js";
import { type PostgresCluster, startPostgres } from "./postgresCluster.js";
import { type Replica, startReplica } from "./replicas.js";

const promptKey = (r: OllamaChatRequest) =>
  r.messages.map((m) => `${m.role}:${m.content}`).join("\n");

describe("two replicas on one PostgreSQL", () => {
  let cluster: PostgresCluster;
  let server: OllamaServer;
  let observer: ReviewDeskHandle;
  const replicas: Replica[] = [];
  const ana: Reviewer = { name: "ana", role: "reviewer" };

  beforeAll(async () => {
    cluster = await startPostgres();
    server = await startOllamaServer({ models: [MODEL], responder: ollamaProposalResponder(0.85) });
    // The test's own view of the database: it reads, and never runs a job.
    observer = await createReviewDesk({ databaseUrl: cluster.url, env: {}, jobs: { run: false } });
    await addReviewer(observer.store, "ana");
  }, 300_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill()));
    await observer?.close();
    await server?.close();
    await cluster?.stop();
  }, 60_000);

  it("accepts the same decision once, runs the next stage once, and survives a kill -9", async () => {
    const a = startReplica(cluster.url, server);
    const b = startReplica(cluster.url, server);
    replicas.push(a, b);
    await Promise.all([a.ready, b.ready]);

    const started = await a.request({ op: "start", by: ana, rfp: RFP });
    if (!("ok" in started)) throw new Error(`start refused: ${JSON.stringify(started)}`);
    const threadId = started.ok.threadId as string;
    const first = await nextReview(observer, threadId, ana);
    expect(first.stage).toBe("research");

    const before = server.chatRequests().length;
    const decision = {
      op: "decide",
      by: ana,
      threadId,
      request: { interruptId: first.interruptId, action: "approve" },
    };
    const replies = await Promise.all([a.request(decision), b.request(decision)]);
    const accepted = replies.filter((r) => "ok" in r);
    const refused = replies.flatMap((r) => ("error" in r ? [r.error] : []));
    expect(accepted).toHaveLength(1);
    expect(refused.map((e) => e.code)).toEqual(["ALREADY_DECIDED"]);
    expect(refused[0]?.details?.by).toBe("ana");

    const second = await nextReview(observer, threadId, ana, first.interruptId);
    expect(second.stage).toBe("solution");
    const forSolution = server.chatRequests().slice(before);
    // One writer call, and each judge prompt once: the stage was run by one replica, once.
    expect(forSolution.filter((r) => isWriterPrompt(r.messages))).toHaveLength(1);
    const judge = forSolution.filter((r) => !isWriterPrompt(r.messages));
    expect(judge.length).toBeGreaterThan(0);
    expect(new Set(judge.map(promptKey)).size).toBe(judge.length);

    // Kill the replica that accepts the next decision the moment it has accepted it.
    const killed = await a.request({
      op: "decide",
      by: ana,
      threadId,
      request: { interruptId: second.interruptId, action: "approve" },
    });
    // Matched as an object, so a refusal shows its error and code.
    expect(killed).toMatchObject({ ok: { decisionId: expect.any(String) } });
    await a.kill();
    const third = await nextReview(observer, threadId, ana, second.interruptId);
    expect(third.stage).toBe("connection_pairs");

    const status = await observer.threadStatus(threadId, ana);
    expect(status.decisions.map((d) => [d.stage, d.action, d.appliedAt !== undefined])).toEqual([
      ["research", "approve", true],
      ["solution", "approve", true],
    ]);
    expect(status.stages.slice(0, 2).map((s) => s.status)).toEqual(["approved", "approved"]);
  }, 240_000);
});
