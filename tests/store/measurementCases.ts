/**
 * Recorded `calibrate --compare` measurements (cases of the store conformance suite): a database
 * with none answers undefined; the latest is the one measured last, not the one written last, and
 * comes back as it was given with its id; a row that is not a measurement is refused by name.
 */
import { expect, it } from "vitest";
import { buildCalibrationReport } from "../../src/calibration/report.js";
import type { NewCalibrationMeasurement } from "../../src/calibration/reportModel.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import type { FreshDatabase } from "./storeConformance.js";

/** Figures of no labels: every count 0, every figure missing (inputs of the round trip). */
const EMPTY = buildCalibrationReport([]).overall;

function measurement(measuredAt: string, model: string): NewCalibrationMeasurement {
  return {
    measuredAt,
    since: "2026-04-01T00:00:00.000Z",
    until: null,
    contentType: "budget",
    model,
    catalog: { id: "budget_plan", version: "3" },
    comparison: {
      labels: 7,
      replayed: 5,
      skipped: { noContent: 1, notInCatalog: 1 },
      without: EMPTY,
      with: EMPTY,
      criteria: [
        {
          contentType: "budget",
          criterionId: "costs_itemised",
          title: 'Costs <itemised> & "sourced"',
          without: EMPTY,
          with: EMPTY,
        },
      ],
    },
  };
}

export function measurementCases(
  store: () => ReviewStore,
  fresh: () => Promise<FreshDatabase>,
): void {
  it("keeps calibration comparisons: the latest by measurement time, as given", async () => {
    const database = await fresh();
    try {
      const empty = await database.reviewStore();
      expect(await empty.latestCalibrationMeasurement()).toBeUndefined();
      await empty.close();
    } finally {
      await database.close();
    }
    const newer = measurement("2026-05-02T10:00:00.000Z", "ollama:judge-b");
    const older = measurement("2026-05-01T10:00:00.000Z", "ollama:judge-a");
    const recorded = await store().recordCalibrationMeasurement(newer);
    await store().recordCalibrationMeasurement(older);
    const latest = await store().latestCalibrationMeasurement();
    expect(latest).toEqual({ ...newer, id: recorded.id });
    expect(recorded.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a comparison row that is not one, naming it", async () => {
    const database = await fresh();
    try {
      const opened = await database.reviewStore();
      await database.query(
        "INSERT INTO calibration_comparisons (id, measured_at, body) VALUES (?, ?, ?)",
        ["broken-1", "2026-05-03T00:00:00.000Z", '{"model": 3}'],
      );
      await expect(opened.latestCalibrationMeasurement()).rejects.toMatchObject({
        code: "STORE_DATA_INVALID",
        message: expect.stringContaining("calibration comparison broken-1"),
      });
      await opened.close();
    } finally {
      await database.close();
    }
  });
}
