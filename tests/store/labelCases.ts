/**
 * Calibration labels in the review store (cases of the store conformance suite): written with the decision
 * in one transaction (and not when the review was decided already), listed by decision time in
 * keyset pages and by content type, kept once per decision and criterion, and dropped with a
 * decision the graph refused.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";

/** A label of criterion `criterionId` in decision `decisionId`, judge 0.75 (4 on 1–5). */
function label(
  decisionId: string,
  threadId: string,
  criterionId: string,
  decidedAt: string,
  contentType = "research",
): CalibrationLabel {
  return {
    decisionId,
    threadId,
    stage: contentType,
    contentType,
    evaluationId: `ev-${decisionId}`,
    reviewer: "ana",
    decidedAt,
    action: "approve",
    judgePassed: true,
    criterionId,
    criterionTitle: `Criterion ${criterionId}`,
    method: "score",
    threshold: 0.5,
    judgeScore: 0.75,
    judgeMet: true,
    judgeNative: 4,
    source: "accepted",
    // An accepted label keeps the judge's score then as the reviewer's.
    reviewerScore: 0.75,
    reviewerNative: 4,
  };
}

/** A thread waiting at interrupt `i1`, as a job leaves it. */
export async function waitingThread(store: ReviewStore, threadId: string): Promise<void> {
  await store.createThread(
    { id: threadId, title: threadId, creator: "ana", status: "queued", settings: {} },
    { type: "queued" },
  );
  await store.settleThread(threadId, {
    status: "waiting",
    pending: [
      {
        threadId,
        interruptId: "i1",
        stage: "research",
        title: threadId,
        overallScore: 0.75,
        passed: true,
        actions: ["approve", "revise", "edit"],
        createdAt: new Date().toISOString(),
        type: "evaluation_review",
        verdict: "borderline",
      },
    ],
    applied: [],
    events: [],
  });
}

function decision(id: string, threadId: string, decidedAt: string) {
  return {
    id,
    threadId,
    interruptId: "i1",
    stage: "research",
    reviewer: "ana",
    action: "approve" as const,
    payload: {},
    decidedAt,
  };
}

export function labelCases(openStore: () => ReviewStore) {
  describe("calibration labels", () => {
    let store: ReviewStore;
    const run = `${Date.now()}`;
    const tid = (n: string) => `labels-${run}-${n}`;

    beforeAll(() => {
      store = openStore();
    });

    it("writes the labels with the decision, once, and not for a review decided already", async () => {
      const thread = tid("one");
      await waitingThread(store, thread);
      const at = "2031-01-05T10:00:00.000Z";
      const marked: CalibrationLabel = {
        ...label(`d-${thread}`, thread, "feasibility", at),
        source: "marked",
        reviewerScore: 0.25,
        reviewerNative: 2,
        reviewerNote: "the budget is not credible",
      };
      const labels = [label(`d-${thread}`, thread, "clarity", at), marked];
      const first = await store.recordDecision(decision(`d-${thread}`, thread, at), labels);
      expect(first.kind).toBe("recorded");
      const again = await store.recordDecision(decision(`d2-${thread}`, thread, at), [
        label(`d2-${thread}`, thread, "clarity", at),
      ]);
      expect(again.kind).toBe("already_decided");
      // A replayed write of the same labels changes nothing.
      await store.addCalibrationLabels(labels);

      const stored = await store.labelsFor(thread);
      expect(stored).toEqual([label(`d-${thread}`, thread, "clarity", at), marked]);
    });

    it("lists labels by decision time in keyset pages, by content type, from and until a time", async () => {
      const since = "2032-03-01T00:00:00.000Z";
      const times = [
        "2032-03-01T09:00:00.000Z",
        "2032-03-02T09:00:00.000Z",
        "2032-03-03T09:00:00.000Z",
      ];
      for (const [i, at] of times.entries()) {
        const thread = tid(`page-${i}`);
        await waitingThread(store, thread);
        const type = i === 1 ? "solution" : "research";
        await store.recordDecision(decision(`p${i}-${run}`, thread, at), [
          label(`p${i}-${run}`, thread, "a", at, type),
          label(`p${i}-${run}`, thread, "b", at, type),
        ]);
      }
      const key = (l: CalibrationLabel) => `${l.decisionId}/${l.criterionId}`;
      const walked: string[] = [];
      let after: CalibrationLabel | undefined;
      for (let page = 0; page < 10; page++) {
        const rows = await store.calibrationLabels({
          since,
          until: "2032-04-01",
          limit: 4,
          ...(after === undefined ? {} : { after }),
        });
        walked.push(...rows.map(key));
        after = rows.at(-1);
        if (rows.length < 4) break;
      }
      expect(walked).toEqual([
        `p0-${run}/a`,
        `p0-${run}/b`,
        `p1-${run}/a`,
        `p1-${run}/b`,
        `p2-${run}/a`,
        `p2-${run}/b`,
      ]);
      const solution = await store.calibrationLabels({ since, contentType: "solution" });
      expect(solution.map(key)).toEqual([`p1-${run}/a`, `p1-${run}/b`]);
      const before = await store.calibrationLabels({ since, until: times[1] });
      expect(before.map(key)).toEqual([`p0-${run}/a`, `p0-${run}/b`]);
    });

    it("drops the labels of a decision the graph refused", async () => {
      const thread = tid("refused");
      await waitingThread(store, thread);
      const at = "2033-01-01T00:00:00.000Z";
      await store.recordDecision(decision(`r-${thread}`, thread, at), [
        label(`r-${thread}`, thread, "clarity", at),
      ]);
      expect(await store.labelsFor(thread)).toHaveLength(1);
      await store.settleThread(thread, {
        status: "failed",
        error: "refused",
        pending: [],
        applied: [],
        refused: [{ id: `r-${thread}`, reason: "the revision limit is reached" }],
        events: [],
      });
      expect(await store.labelsFor(thread)).toEqual([]);
    });
  });
}
