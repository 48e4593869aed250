/**
 * calibrationReport() over the review store on SQLite and on PostgreSQL: the labels written
 * through the store, read back page by page (more than one page, many labels of one instant),
 * the figures checked against hand-computed values; and `evalgate calibrate` on the same store.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calibrationReport } from "../../src/index.js";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import { PostgresReviewStore, SqliteReviewStore } from "../../src/store/reviewStore.js";
import { label, labelHistory } from "../calibration/calibrationHistory.js";
import { runEvalgate, SPAWN_TIMEOUT } from "../cli/helpers.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";

/**
 * 1,200 decisions of content type "bulk", all decided at the same instant (so pages must be cut
 * by decision id): decision i with i % 4 = 0 marked 0.8 → 0.3 (judge only), i % 4 = 1 accepted at
 * 0.4 (both fail), otherwise accepted at 0.8 (both pass).
 */
function bulkLabels(): CalibrationLabel[] {
  return Array.from({ length: 1200 }, (_, i) => {
    const base = {
      decisionId: `p${String(i).padStart(4, "0")}`,
      decidedAt: "2026-09-15T00:00:00.000Z",
      contentType: "bulk",
      criterionId: "k1",
      criterionTitle: "Bulk criterion",
    };
    if (i % 4 === 0) return label({ ...base, source: "marked", reviewerScore: 0.3 });
    if (i % 4 === 1) return label({ ...base, judgeScore: 0.4, judgeMet: false });
    return label(base);
  });
}

function storeContract(
  kind: string,
  open: () => Promise<ReviewStore>,
  /** The command's options naming the same store. */
  storeArgs: () => string[],
) {
  describe(`calibrationReport() over the ${kind} review store`, () => {
    let store: ReviewStore;
    beforeAll(async () => {
      store = await open();
      await store.addCalibrationLabels([...labelHistory(), ...bulkLabels()]);
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    it("reads every label across pages", async () => {
      const report = await calibrationReport({ store });
      // 24 labels of the history + 1,200 bulk labels: 1,224, more than one page of 1,000.
      expect(report.overall.counts.labels).toBe(1224);
      expect(report.gate.decisions).toBe(23 + 1200);
      // bulk: 600 both pass, 300 judge only, 300 both fail. n = 1200, po = 0.75, pJ = 0.75,
      // pR = 0.5, pe = 0.75·0.5 + 0.25·0.5 = 0.5, κ = (0.75 − 0.5)/0.5 = 0.5
      const bulk = report.contentTypes.find((group) => group.contentType === "bulk");
      expect(bulk?.figures.table).toEqual({
        bothPass: 600,
        judgeOnlyPass: 300,
        reviewerOnlyPass: 0,
        bothFail: 300,
      });
      expect(bulk?.figures.kappa.value).toBeCloseTo(0.5, 12);
    });

    it("narrows by time and content type in the store", async () => {
      const report = await calibrationReport({
        store,
        since: "2026-10-01",
        contentType: "budget",
      });
      // Only the budget history: c1 is an 8/2/1/9 table, κ = 0.70 (hand-computed in
      // tests/calibration/calibrationReport.test.ts); 21 + 1 labels.
      expect(report.overall.counts.labels).toBe(22);
      expect(report.contentTypes[0]?.criteria[0]?.figures.kappa.value).toBeCloseTo(0.7, 12);
    });

    it(
      "is what `evalgate calibrate` reads",
      async () => {
        const run = await runEvalgate(
          ["calibrate", ...storeArgs(), "--content-type", "summary", "-f", "json"],
          { cwd: dir, timeoutMs: SPAWN_TIMEOUT },
        );
        expect(run.code).toBe(0);
        const report = JSON.parse(run.stdout) as { overall: { counts: { labels: number } } };
        expect(report.overall.counts.labels).toBe(2);
        expect(run.stderr).toMatch(/^2 labels of 2 decisions from (reviews\.sqlite|PostgreSQL \()/);
        expect(run.stderr).not.toContain("postgres://");
      },
      SPAWN_TIMEOUT,
    );
  });
}

const dir = mkdtempSync(join(tmpdir(), "evalgate-calibration-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
storeContract(
  "sqlite",
  async () => SqliteReviewStore.open(join(dir, "reviews.sqlite")),
  () => ["--db", "reviews.sqlite"],
);

/** A database of its own on the test cluster, so that no other test's labels are counted. */
let cluster: PostgresCluster | undefined;
let databaseUrl = "";
const DATABASE = `calibration_${process.pid}_${Date.now()}`;
afterAll(async () => {
  if (cluster === undefined) return;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();
  await cluster.stop();
}, 60_000);
storeContract(
  "postgres",
  async () => {
    cluster = await startPostgres();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = `/${DATABASE}`;
    databaseUrl = url.toString();
    return PostgresReviewStore.open(databaseUrl, 2);
  },
  () => ["--database-url", databaseUrl],
);
