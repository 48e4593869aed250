/**
 * Few-shot examples from the review store, on SQLite and on PostgreSQL: the one read the store
 * adds (a criterion's corrections decided strictly before a time, of one content type, newest
 * first) and the example source over it, which finds each correction's content in the traces
 * kept in the same database and leaves out a correction whose evaluation kept none.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeExampleSource } from "../../src/calibration/fewShot.js";
import { fenceData } from "../../src/judge/fence.js";
import { buildTrace } from "../../src/judge/trace.js";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import { PostgresReviewStore, SqliteReviewStore } from "../../src/store/reviewStore.js";
import {
  PostgresTraceStore,
  SqliteTraceStore,
  type TraceStore,
} from "../../src/store/traceStore.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";

function label(
  decisionId: string,
  criterionId: string,
  decidedAt: string,
  overrides: Partial<CalibrationLabel> = {},
): CalibrationLabel {
  return {
    decisionId,
    threadId: `t-${decisionId}`,
    stage: "solution",
    contentType: "solution",
    evaluationId: `ev-${decisionId}`,
    reviewer: "ana",
    decidedAt,
    action: "revise",
    judgePassed: true,
    criterionId,
    criterionTitle: criterionId,
    method: "score",
    threshold: 0.5,
    judgeScore: 1,
    judgeMet: true,
    judgeNative: 5,
    source: "marked",
    reviewerScore: 0.25,
    reviewerNative: 2,
    reviewerNote: "no roof survey",
    ...overrides,
  };
}

function judgeTrace(criterionId: string, content: string) {
  return buildTrace({
    purpose: "criterion",
    criterionIds: [criterionId],
    model: "ollama:judge",
    parameters: {},
    systemPrompt: "You are a judge.",
    userPrompt: `Content under evaluation:\n${fenceData("CONTENT", content)}\n\nCriterion: x`,
    rawResponse: "{}",
    latencyMs: 1,
  });
}

function contract(name: string, open: () => Promise<{ store: ReviewStore; traces: TraceStore }>) {
  describe(`corrections as examples on ${name}`, () => {
    let store: ReviewStore;
    let traces: TraceStore;
    const run = `${name}-${Date.now()}`;
    const id = (n: string) => `${run}-${n}`;

    beforeAll(async () => {
      ({ store, traces } = await open());
      await store.addCalibrationLabels([
        label(id("m1"), "feasibility", "2026-03-01T10:00:00.000Z"),
        label(id("m2"), "feasibility", "2026-03-01T11:00:00.000Z"),
        label(id("a3"), "feasibility", "2026-03-01T09:00:00.000Z", { source: "accepted" }),
        label(id("m4"), "impact", "2026-03-01T09:30:00.000Z"),
        label(id("m5"), "feasibility", "2026-03-01T12:00:00.000Z"),
        label(id("m6"), "feasibility", "2026-03-01T08:00:00.000Z", { contentType: "budget" }),
      ]);
      // m1 and m5 kept their traces; m2's evaluation wrote its traces elsewhere.
      await traces.saveTraces({ evaluationId: `ev-${id("m1")}` }, [
        judgeTrace("feasibility", `Solar panels on the ${run} school roof.`),
      ]);
      await traces.saveTraces({ evaluationId: `ev-${id("m5")}` }, [
        judgeTrace("feasibility", "Later content."),
      ]);
    }, 300_000);
    afterAll(async () => {
      await store?.close();
    });

    it("lists a criterion's corrections before a time, of one content type, newest first", async () => {
      const found = await store.correctionLabels({
        criterionId: "feasibility",
        contentType: "solution",
        before: "2026-03-01T12:00:00.000Z",
        limit: 10,
      });
      const ours = found.filter((l) => l.decisionId.startsWith(run)).map((l) => l.decisionId);
      expect(ours).toEqual([id("m2"), id("m1")]);
      const one = await store.correctionLabels({
        criterionId: "feasibility",
        before: "2026-03-01T12:00:00.000Z",
        limit: 1,
      });
      expect(one.map((l) => l.decisionId)).toEqual([id("m2")]);
    });

    it("gives each correction with its content as an example, and none without content", async () => {
      const source = storeExampleSource(store, traces);
      const examples = await source.examples({
        criterionId: "feasibility",
        contentType: "solution",
        before: "2026-03-01T12:00:00.000Z",
        limit: 10,
      });
      const ours = examples.filter((e) => e.labelId.startsWith(run));
      expect(ours).toEqual([
        {
          labelId: `${id("m1")}#feasibility`,
          criterionId: "feasibility",
          contentType: "solution",
          decidedAt: "2026-03-01T10:00:00.000Z",
          excerpt: `Solar panels on the ${run} school roof.`,
          judgeValue: 5,
          correctedValue: 2,
          note: "no roof survey",
        },
      ]);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "evalgate-corrections-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
contract("sqlite", async () => {
  const path = join(dir, "store.sqlite");
  const store = await SqliteReviewStore.open(path);
  return { store, traces: new SqliteTraceStore(new Database(path)) };
});

let cluster: PostgresCluster | undefined;
let pool: pg.Pool | undefined;
afterAll(async () => {
  await pool?.end();
  await cluster?.stop();
}, 60_000);
contract("postgres", async () => {
  cluster = await startPostgres();
  const store = await PostgresReviewStore.open(cluster.url, 2);
  pool = new pg.Pool({ connectionString: cluster.url, max: 1 });
  return { store, traces: new PostgresTraceStore(pool) };
});
