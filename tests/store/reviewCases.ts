/**
 * The review store's own cases (of the store conformance suite), on two connections to one
 * database: a review decided from both at once is recorded exactly once, a thread's lock is held by
 * one of them at a time, the pending index pages by keyset, a retry sets refused decisions aside
 * once, reviewers are unique by name.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import { waitingThread } from "./labelCases.js";

function decisionBy(reviewer: string, threadId: string) {
  return {
    ...{ id: `${reviewer}-${randomUUID()}`, threadId, interruptId: "i1", stage: "research" },
    ...{ reviewer, action: "approve" as const, payload: {}, decidedAt: new Date().toISOString() },
  };
}

export function reviewCases(stores: () => [ReviewStore, ReviewStore]) {
  describe("the review store", () => {
    let one: ReviewStore;
    let two: ReviewStore;
    beforeAll(() => {
      [one, two] = stores();
    });

    it("records one of two decisions sent at once from two connections, and says who decided", async () => {
      const thread = `decide-${randomUUID()}`;
      await waitingThread(one, thread);
      const results = await Promise.all([
        one.recordDecision(decisionBy("ana", thread)),
        two.recordDecision(decisionBy("bo", thread)),
      ]);
      expect(results.map((r) => r.kind).sort()).toEqual(["already_decided", "recorded"]);
      const recorded = results.find((r) => r.kind === "recorded");
      const told = results.find((r) => r.kind === "already_decided");
      if (recorded?.kind !== "recorded" || told?.kind !== "already_decided") throw new Error("?");
      expect(told.decision.id).toBe(recorded.decision.id);
      expect(await one.pendingOf(thread)).toEqual([]);
      expect((await two.unappliedDecisions(thread)).map((d) => d.id)).toEqual([
        recorded.decision.id,
      ]);
      expect((await two.thread(thread))?.status).toBe("queued");
      const late = await one.recordDecision({ ...decisionBy("cy", `${thread}-none`) });
      expect(late.kind).toBe("not_pending");
    });

    it("counts attempts per key in a window both connections share, and starts again after it", async () => {
      const key = `address:${randomUUID()}`;
      const at = new Date("2026-05-04T10:00:00.000Z");
      const counts = [
        await one.countAttempt(key, 60, at),
        await two.countAttempt(key, 60, new Date(at.getTime() + 1000)),
        await one.countAttempt(key, 60, new Date(at.getTime() + 2000)),
      ];
      expect(counts.map((c) => c.count)).toEqual([1, 2, 3]);
      expect(new Set(counts.map((c) => c.windowEndsAt))).toEqual(
        new Set(["2026-05-04T10:01:00.000Z"]),
      );
      expect(await two.attemptsOf(key, new Date(at.getTime() + 3000))).toEqual(counts[2]);
      const later = new Date(at.getTime() + 61_000);
      expect(await two.attemptsOf(key, later)).toBeUndefined();
      expect((await two.countAttempt(key, 60, later)).count).toBe(1);
      expect(await one.attemptsOf(`address:${randomUUID()}`, later)).toBeUndefined();
    });

    it("lets one connection at a time hold a thread's lock", async () => {
      const thread = `lock-${randomUUID()}`;
      const lease = await one.tryLockThread(thread);
      expect(lease).toBeDefined();
      expect(await two.tryLockThread(thread)).toBeUndefined();
      await lease?.release();
      const next = await two.tryLockThread(thread);
      expect(next).toBeDefined();
      await next?.release();
    });

    it("pages the pending index of a reviewer's threads newest first, from a cursor", async () => {
      const reviewer = `pager-${randomUUID()}`;
      const threads = [0, 1, 2].map((i) => `page-${i}-${randomUUID()}`);
      for (const thread of threads) {
        await waitingThread(one, thread);
        await one.assign(thread, reviewer);
      }
      const first = await two.listPending({ reviewer, limit: 2 });
      const last = first.at(-1);
      if (last === undefined) throw new Error("an empty first page");
      const rest = await two.listPending({ reviewer, limit: 2, after: last });
      const seen = [...first, ...rest].map((p) => p.threadId);
      expect(new Set(seen)).toEqual(new Set(threads));
      expect(seen).toHaveLength(3);
      const stamps = [...first, ...rest].map((p) => `${p.createdAt}/${p.threadId}`);
      expect(stamps).toEqual([...stamps].sort().reverse());
      expect(first[0]?.passed).toBe(true);
      expect(await two.isAssigned(threads[0] as string, reviewer)).toBe(true);
      expect(await two.isAssigned(threads[0] as string, `${reviewer}-not`)).toBe(false);
    });

    it("lists a reviewer's finished threads last changed first, a page at a time, and no other", async () => {
      const reviewer = `finisher-${randomUUID()}`;
      const threads = [0, 1, 2].map((i) => `done-${i}-${randomUUID()}`);
      for (const thread of threads) {
        await waitingThread(one, thread);
        await one.assign(thread, reviewer);
        await one.settleThread(thread, {
          ...{ status: "finished", pending: [], applied: [], events: [] },
        });
      }
      const waiting = `still-${randomUUID()}`;
      await waitingThread(one, waiting);
      await one.assign(waiting, reviewer);
      const unassigned = `other-${randomUUID()}`;
      await waitingThread(one, unassigned);
      await one.settleThread(unassigned, {
        ...{ status: "finished", pending: [], applied: [], events: [] },
      });

      const first = await two.listThreads({ status: "finished", reviewer, limit: 2 });
      const last = first.at(-1);
      if (last === undefined) throw new Error("an empty first page");
      const after = { updatedAt: last.updatedAt, threadId: last.id };
      const rest = await two.listThreads({ status: "finished", reviewer, limit: 2, after });
      const seen = [...first, ...rest];
      expect(new Set(seen.map((t) => t.id))).toEqual(new Set(threads));
      expect(seen).toHaveLength(3);
      expect(seen.every((t) => t.status === "finished" && t.title === t.id)).toBe(true);
      const stamps = seen.map((t) => `${t.updatedAt}/${t.id}`);
      expect(stamps).toEqual([...stamps].sort().reverse());
      const everyone = await two.listThreads({ status: "finished", limit: 1000 });
      expect(everyone.map((t) => t.id)).toContain(unassigned);
      expect(everyone.map((t) => t.id)).not.toContain(waiting);
    });

    it("retries a failed thread once, setting its refused decision aside", async () => {
      const thread = `retry-${randomUUID()}`;
      await waitingThread(one, thread);
      const decided = decisionBy("ana", thread);
      await one.recordDecision(decided);
      await one.settleThread(thread, {
        ...{ status: "failed", error: "refused", pending: [], applied: [], events: [] },
        refused: [{ id: decided.id, reason: "no longer paused" }],
      });
      const retried = await Promise.all([
        one.retryThread(thread, "ana"),
        two.retryThread(thread, "bo"),
      ]);
      expect(retried.filter(Boolean)).toHaveLength(1);
      expect(await two.decisionsOf(thread)).toEqual([]);
      const events = await two.eventsAfter(thread, 0, 100);
      expect(events.at(-1)?.message).toMatch(
        /^retried by (ana|bo) \(set aside the refused ana's approve\)$/,
      );
      expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
    });

    it("keeps reviewers unique by name and forgets a revoked one's token", async () => {
      const name = `reviewer-${randomUUID()}`;
      await one.addReviewer(name, "reviewer", `${name}-hash`);
      const again = two.addReviewer(name, "admin", `${name}-other-hash`);
      await expect(again).rejects.toSatisfy((e) => isEvalgateError(e, "REVIEWER_EXISTS"));
      expect(await two.reviewerByTokenHash(`${name}-hash`)).toEqual({ name, role: "reviewer" });
      expect(await one.revokeReviewer(name)).toBe(true);
      expect(await two.revokeReviewer(name)).toBe(false);
      expect(await two.reviewerByTokenHash(`${name}-hash`)).toBeUndefined();
      expect((await one.reviewerByName(name))?.revokedAt).not.toBeNull();
    });
  });
}
