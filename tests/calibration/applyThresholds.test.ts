/**
 * planThresholds fits each threshold on the earlier labels and measures it on the later ones:
 * a threshold that helps on both is planned, one that helps in-sample and hurts held out is
 * planned with its drop showing (heldOutDrops), and a criterion whose labels cannot be split
 * keeps its threshold. Every figure is worked out by hand.
 */
import { describe, expect, it } from "vitest";
import {
  catalogWithThresholds,
  heldOutDrops,
  planThresholds,
} from "../../src/calibration/thresholds.js";
import { CatalogSchema } from "../../src/criteria/model.js";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import { solutionQualityCatalog } from "../catalogs/solutionQuality.js";
import { label } from "./calibrationHistory.js";

const CATALOG = CatalogSchema.parse(solutionQualityCatalog());

/** Label i (0-based) decided at 10:00 + i hours: the judge's score and the reviewer's. */
function labelled(views: ReadonlyArray<readonly [number, number]>): CalibrationLabel[] {
  return views.map(([judge, reviewer], i) =>
    label({
      decisionId: `d${String(i).padStart(2, "0")}`,
      decidedAt: `2026-06-01T${String(10 + i).padStart(2, "0")}:00:00.000Z`,
      contentType: "solution",
      criterionId: "feasibility",
      threshold: 0.5,
      judgeScore: judge,
      judgeMet: judge >= 0.5,
      source: "marked",
      reviewerScore: reviewer,
    }),
  );
}

const FAILED_06 = [0.6, 0.2] as const; // the judge passes at 0.50, the reviewer fails
const PASSED_08 = [0.8, 0.9] as const; // both pass at 0.50 and at 0.61
const PASSED_06 = [0.6, 0.9] as const; // the judge passes at 0.50 only, the reviewer passes

/** Six earlier labels, alternating: three 0.6s the reviewer failed, three 0.8s they passed. */
const EARLIER = [FAILED_06, PASSED_08, FAILED_06, PASSED_08, FAILED_06, PASSED_08];

describe("planThresholds: fitted on the earlier labels, measured on the later", () => {
  it("plans a threshold that agrees better held out too", () => {
    const plan = planThresholds(CATALOG, labelled([...EARLIER, ...EARLIER]), "solution");
    // In-sample (d00–d05): at 0.50 the judge passes all six, the reviewer three: 3/6 = 50%;
    // pJ = 1, pR = 1/2, pe = 1/2, κ = (1/2 − 1/2)/(1/2) = 0. From 0.61 to 0.80 the judge fails
    // the 0.6s: 6/6 = 100%, pJ = pR = 1/2, pe = 1/2, κ = (1 − 1/2)/(1/2) = 1; 0.61 is the nearest.
    // Held out (d06–d11, from 16:00): the same six again: 50% → 100%, κ 0 → 1.
    expect(plan.kept).toEqual([]);
    expect(plan.changes).toEqual([
      {
        criterionId: "feasibility",
        from: 0.5,
        to: 0.61,
        compared: 6,
        agreementBefore: 0.5,
        agreementAfter: 1,
        kappaBefore: 0,
        kappaAfter: 1,
        labelIds: ["d00", "d01", "d02", "d03", "d04", "d05"].map((d) => `${d}#feasibility`),
        heldOut: {
          since: "2026-06-01T16:00:00.000Z",
          compared: 6,
          agreementBefore: 0.5,
          agreementAfter: 1,
          kappaBefore: 0,
          kappaAfter: 1,
          labelIds: ["d06", "d07", "d08", "d09", "d10", "d11"].map((d) => `${d}#feasibility`),
        },
      },
    ]);
    expect(heldOutDrops(plan)).toEqual([]);
  });

  it("shows the drop of a threshold that helps in-sample and hurts held out", () => {
    // Later the reviewers pass three 0.6s: 0.6 pass ×3, 0.8 pass ×2, 0.6 fail ×1.
    const later = [PASSED_06, PASSED_08, PASSED_06, PASSED_08, PASSED_06, FAILED_06];
    const plan = planThresholds(CATALOG, labelled([...EARLIER, ...later]), "solution");
    const [change] = plan.changes;
    // In-sample as above: 0.50 → 0.61, 50% → 100%, κ 0 → 1.
    expect(change).toMatchObject({ to: 0.61, agreementBefore: 0.5, agreementAfter: 1 });
    // Held out at 0.50: the judge passes all six, the reviewer five: 5/6 = 83.3%;
    // pJ = 1, pR = 5/6, pe = 5/6, κ = (5/6 − 5/6)/(1/6) = 0.
    // At 0.61 the judge passes the two 0.8s only: both pass 2, judge only 0, reviewer only 3,
    // both fail 1: 3/6 = 50%; pJ = 2/6, pR = 5/6, pe = 2/6·5/6 + 4/6·1/6 = 14/36,
    // κ = (18/36 − 14/36)/(22/36) = 4/22 = 0.1818.
    expect(change?.heldOut?.agreementBefore).toBeCloseTo(5 / 6, 12);
    expect(change?.heldOut?.agreementAfter).toBe(0.5);
    expect(change?.heldOut?.kappaBefore).toBeCloseTo(0, 12);
    expect(change?.heldOut?.kappaAfter).toBeCloseTo(2 / 11, 12);
    expect(heldOutDrops(plan)).toEqual([change]);
    const written = catalogWithThresholds(CATALOG, plan, {
      since: null,
      until: null,
      contentType: "solution",
      appliedAt: "2026-06-02T00:00:00.000Z",
    });
    expect(written.calibration?.changes[0]?.forced).toBe(true);
  });

  it("keeps a threshold when the fit would pass every answer", () => {
    // The reviewers pass everything, the judge's 0s too: (0, 0.9) and (0.8, 0.9) alternating.
    // At 0.50 the judge passes the 0.8s only: 3/6 = 50%; only 0.00 passes the 0s: 6/6 = 100%,
    // on the later six as well. A threshold of 0 is no gate (catalog validation refuses it).
    const views = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? [0, 0.9] : [0.8, 0.9]));
    const plan = planThresholds(CATALOG, labelled(views as [number, number][]), "solution");
    expect(plan.changes).toEqual([]);
    expect(plan.kept).toEqual([
      {
        criterionId: "feasibility",
        threshold: 0.5,
        reason:
          "the threshold that agrees best with the earlier labels, 0.00, would pass every answer",
      },
    ]);
  });

  it("keeps a threshold whose labels cannot be split in time, saying why", () => {
    // Ten labels decided at one time: none is decided before the later part starts.
    const once = labelled([...EARLIER, ...EARLIER.slice(0, 4)]).map((l) => ({
      ...l,
      decidedAt: "2026-06-01T10:00:00.000Z",
    }));
    const plan = planThresholds(CATALOG, once, "solution");
    expect(plan.changes).toEqual([]);
    expect(plan.kept).toEqual([
      {
        criterionId: "feasibility",
        threshold: 0.5,
        reason: "0 label(s) decided before the later 10: each side of the time split needs 5",
      },
    ]);
  });
});
