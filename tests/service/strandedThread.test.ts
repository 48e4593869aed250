/**
 * A thread stranded by a crash, seen through the service's JSON API over a real review desk: its
 * process died after `startEvaluateConnectionPairs` wrote its output and before LangGraph saved
 * the next checkpoint (pending writes, `next` empty). The store calls it finished — what the desk
 * recorded before it judged threads by their checkpoint — so no recovery at start-up picks it
 * up. GET /api/threads/:id must not say finished; a retry runs it on to the next review, and the
 * run ends with every stage approved once.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import { createServiceApp } from "../../src/service/app.js";
import { openReviewStore } from "../../src/store/index.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { hashToken, newReviewerToken } from "../../src/store/tokens.js";
import { putAfter, releaseDeadLocks } from "../orchestrator/crashingSaver.js";
import {
  fullDeskRun,
  modelFor,
  openDyingDesk,
  runUntilCrash,
  SECTIONS,
} from "../orchestrator/dyingDesk.js";
import { tempDir } from "../orchestrator/helpers.js";
import { STAGE_IDS } from "../proposalStages.js";
import { apiClient, errorOf } from "./apiClient.js";
import { eventually } from "./realDesk.js";

const THREAD = "stranded-after-start-node";
const BY: Reviewer = { name: "dana", role: "admin" };

interface Status {
  status: string;
  error?: string;
  stages: Array<{ stage: string; status: string }>;
  decisions: Array<{ stage: string; action: string; appliedAt?: string }>;
}

describe("a thread stranded with pending writes, through the API", () => {
  let temp: ReturnType<typeof tempDir>;
  let desk: ReviewDeskHandle | undefined;

  beforeEach(() => {
    temp = tempDir("evalgate-stranded-");
  });
  afterEach(async () => {
    await desk?.close();
    desk = undefined;
    temp.remove();
  });

  it("is reported failed with the work left, not finished, and a retry runs it to the end", async () => {
    const path = join(temp.dir, "checkpoints.sqlite");
    const dying = await openDyingDesk(path, putAfter("startEvaluateConnectionPairs"));
    const thread = {
      id: THREAD,
      by: BY,
      input: {
        rfpDocument: "Fenwick Delta Fund — Levee Monitoring 2027. Grants to USD 75,000.",
        applicantInput: "Fenwick Levee Watch, 40 trained volunteers since 2021.",
      },
    };
    expect(await runUntilCrash(dying, fullDeskRun(dying, thread))).toBe("crashed");
    releaseDeadLocks(path);
    // What the desk settled such a thread as before: finished, its decision marked applied.
    const store = await openReviewStore({ sqlitePath: path });
    const applied = (await store.unappliedDecisions(THREAD)).map((d) => d.id);
    expect(applied).toHaveLength(1);
    await store.settleThread(THREAD, { status: "finished", pending: [], applied, events: [] });
    await store.close();

    desk = await createReviewDesk({ sqlitePath: path, model: modelFor(), sections: SECTIONS });
    const token = newReviewerToken();
    await desk.store.addReviewer(BY.name, BY.role, hashToken(token));
    const client = apiClient(createServiceApp({ desk, logError: () => {} }));
    const status = async () => (await client.get(`/api/threads/${THREAD}`, token)).body as Status;

    const stranded = await status();
    expect(stranded.status).toBe("failed");
    expect(stranded.error).toContain("work left (judging Connection Pairs)");
    expect(stranded.stages.find((s) => s.stage === "connection_pairs")?.status).toBe("evaluating");
    const noReview = await client.get(`/api/reviews/${THREAD}`, token);
    expect(noReview.status).toBe(409);
    expect(errorOf(noReview).message).toBe(
      `thread ${THREAD} waits for no review now [REVIEW_NOT_PENDING]`,
    );

    const retried = await client.post(`/api/threads/${THREAD}/retry`, token, {});
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual({ threadId: THREAD, status: "queued" });

    // Each review as it comes, approved through the API, to the end.
    for (const stage of STAGE_IDS.slice(2)) {
      const review = await eventually(`the ${stage} review`, async () => {
        const answer = await client.get(`/api/reviews/${THREAD}`, token);
        const body = answer.body as { stage?: string; interruptId?: string };
        return answer.status === 200 && body.stage === stage ? body : undefined;
      });
      const decided = await client.post(`/api/reviews/${THREAD}/decisions`, token, {
        interruptId: review.interruptId,
        action: "approve",
      });
      expect(decided.status).toBe(202);
    }
    const done = await eventually("the thread to finish", async () => {
      const now = await status();
      return now.status === "finished" ? now : undefined;
    });
    expect(done.error).toBeUndefined();
    expect(done.stages.map((s) => s.status)).toEqual(STAGE_IDS.map(() => "approved"));
    expect(done.decisions.map((d) => `${d.stage}:${d.action}`)).toEqual(
      STAGE_IDS.map((id) => `${id}:approve`),
    );
    expect(done.decisions.every((d) => d.appliedAt !== undefined)).toBe(true);

    // A retry of the finished thread is refused: nothing is left.
    const again = await client.post(`/api/threads/${THREAD}/retry`, token, {});
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("THREAD_NOT_FAILED");
  }, 120_000);
});
