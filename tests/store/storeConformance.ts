/**
 * The store conformance suite: every store (review, sessions, calibration labels, registry, judge
 * cache, traces) and the migrations, one set of cases run on each database the way LangGraph's
 * checkpoint validation runs every saver. `describeStoreConformance(name, open)` takes a database
 * under test that hands out stores on connections of their own, as replicas or processes have.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCHEMA_WORDS } from "../../src/store/database.js";
import type { ClosableJudgeCacheStore } from "../../src/store/index.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import type { RegistryStore } from "../../src/store/registryStore.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import { labelCases } from "./labelCases.js";
import { measurementCases } from "./measurementCases.js";
import { reviewCases } from "./reviewCases.js";
import { runSettingsCases } from "./runSettingsCases.js";
import { sessionCases } from "./sessionCases.js";
import { type TraceStoreHarness, traceStoreCases } from "./traceStoreCases.js";

/** A database of its own, empty, for migration cases. */
export interface FreshDatabase {
  /** SQL on it (`?` placeholders), its rows. */
  query(text: string, values?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Statements separated by semicolons. */
  script(text: string): Promise<void>;
  reviewStore(): Promise<ReviewStore>;
  close(): Promise<void>;
}

export interface DatabaseUnderTest {
  readonly dialect: "sqlite" | "postgres";
  /** A review store on a connection of its own, its schema brought up to date. */
  reviewStore(): Promise<ReviewStore>;
  registryStore(): Promise<RegistryStore>;
  judgeCache(): Promise<ClosableJudgeCacheStore>;
  /** A trace store on a connection of its own, with raw SQL beside it. */
  traces(): Promise<TraceStoreHarness & { close(): Promise<void> }>;
  fresh(): Promise<FreshDatabase>;
  close(): Promise<void>;
}

export function describeStoreConformance(name: string, open: () => Promise<DatabaseUnderTest>) {
  describe(`the stores on ${name}`, () => {
    let db: DatabaseUnderTest;
    const closing: Array<{ close(): Promise<void> }> = [];
    const stores: ReviewStore[] = [];
    let traces: TraceStoreHarness & { close(): Promise<void> };

    beforeAll(async () => {
      db = await open();
      stores.push(await db.reviewStore(), await db.reviewStore());
      traces = await db.traces();
      closing.push(...stores, traces);
    }, 300_000);
    afterAll(async () => {
      for (const store of closing.splice(0)) await store.close();
      await db?.close();
    }, 60_000);

    const at = (i: number) => stores[i] as ReviewStore;
    const opened = <T extends { close(): Promise<void> }>(store: T) => {
      closing.push(store);
      return store;
    };

    reviewCases(() => [at(0), at(1)]);
    runSettingsCases(() => [at(0), at(1)]);
    sessionCases(() => [at(0), at(1)]);
    labelCases(() => at(0));
    measurementCases(
      () => at(0),
      () => db.fresh(),
    );
    traceStoreCases(() => traces);

    it("registers rubric versions from two connections at once as consecutive versions", async () => {
      const [one, two] = [opened(await db.registryStore()), opened(await db.registryStore())];
      const rubricId = `rubric-${randomUUID()}`;
      const register = (store: RegistryStore, hash: string) =>
        store.registerRubric(
          {
            rubricId,
            contentHash: hash,
            targetType: "essay",
            bodyOf: (version) => JSON.stringify({ hash, version }),
          },
          (latest) => ({ version: String(Number(latest?.version ?? 0) + 1), created: true }),
        );
      const made = await Promise.all([register(one, "h-a"), register(two, "h-b")]);
      expect(made.map((m) => m.version).sort()).toEqual(["1", "2"]);
      const versions = await two.rubricVersions(rubricId);
      expect(versions.map((v) => [v.version, v.seq])).toEqual([
        ["1", 1],
        ["2", 2],
      ]);
      expect((await one.rubricVersion(rubricId))?.version).toBe("2");
      // Activating an earlier version points the rubric at it; an unknown version changes nothing.
      expect(await one.activateRubric(rubricId, "1")).toBe(true);
      expect((await two.rubricVersion(rubricId))?.version).toBe("1");
      expect(await one.activateRubric(rubricId, "9")).toBe(false);
      expect((await two.rubricVersion(rubricId))?.version).toBe("1");
      expect(await one.activateRubric(rubricId, "2")).toBe(true);
      expect((await two.rubricVersion(rubricId))?.version).toBe("2");
      expect(await one.hideRubric(rubricId)).toBe(true);
      expect(await two.rubricVersion(rubricId)).toBeUndefined();
      expect(await two.rubricVersions(rubricId)).toHaveLength(2);
    });

    it("numbers an artifact's review rounds and keeps each evaluation's outcome", async () => {
      const store = opened(await db.registryStore());
      const id = `artifact-${randomUUID()}`;
      const time = "2034-02-02T02:02:02.000Z";
      await store.createArtifact({
        ...{ id, type: "essay", name: "Ödön's essay", content: '{"text":"x"}' },
        ...{ rubricIds: ["r1", "r2"], status: "draft", createdAt: time, updatedAt: time },
      });
      const evaluation = (n: number, passed: boolean) => ({
        ...{ id: `${id}-e${n}`, artifactId: id, position: n, rubricId: `r${n}` },
        ...{ rubricVersion: "1", passed, body: `{"n":${n}}`, evaluatedAt: time },
      });
      expect(await store.recordArtifactReview(id, "needs_revision", [evaluation(1, false)])).toBe(
        1,
      );
      const second = [evaluation(2, true), { ...evaluation(3, false), id: `${id}-e3b` }];
      expect(await store.recordArtifactReview(id, "approved", second)).toBe(2);
      const latest = await store.latestArtifactEvaluations(id);
      expect(latest.map((e) => [e.reviewRound, e.position, e.passed])).toEqual([
        [2, 2, true],
        [2, 3, false],
      ]);
      expect((await store.artifact(id))?.status).toBe("approved");
      expect((await store.artifact(id))?.rubricIds).toEqual(["r1", "r2"]);
    });

    it("keeps a judge answer for every connection, replaced by a newer one, within its age", async () => {
      const [one, two] = [opened(await db.judgeCache()), opened(await db.judgeCache())];
      const key = `key-${randomUUID()}`;
      const entry = (answer: string, createdAt: string) => ({
        ...{ key, answer, model: "ollama:test", purpose: "criterion", createdAt },
      });
      expect(await two.get(key, undefined)).toBeUndefined();
      await one.put(entry('{"score":1}', "2035-01-01T00:00:00.000Z"));
      await two.put(entry('{"score":0.5}', "2035-01-02T00:00:00.000Z"));
      expect(await one.get(key, undefined)).toBe('{"score":0.5}');
      expect(await one.get(key, "2035-01-02T00:00:00.000Z")).toBe('{"score":0.5}');
      expect(await one.get(key, "2035-01-02T00:00:00.001Z")).toBeUndefined();
    });

    migrationCases(() => db);
  });
}

const MIGRATIONS_TABLE = `CREATE TABLE evalgate_migrations (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`;

async function appliedMigrations(fresh: FreshDatabase) {
  const rows = await fresh.query(
    "SELECT id, name, applied_at FROM evalgate_migrations ORDER BY id",
  );
  return rows.map((r) => ({ id: Number(r.id), name: String(r.name), at: String(r.applied_at) }));
}

function migrationCases(database: () => DatabaseUnderTest) {
  describe("the migrations", () => {
    it("are recorded once each, by id, however many connections open the database at once", async () => {
      const fresh = await database().fresh();
      try {
        const opened = await Promise.all([1, 2, 3].map(() => fresh.reviewStore()));
        for (const store of opened) await store.close();
        const applied = await appliedMigrations(fresh);
        expect(applied.map((m) => m.id)).toEqual(MIGRATIONS.map((m) => m.id));
        expect(applied.map((m) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
      } finally {
        await fresh.close();
      }
    });

    it("open a database an earlier version left at migration 12: only what is newer is added", async () => {
      const fresh = await database().fresh();
      const words = SCHEMA_WORDS[database().dialect];
      try {
        await fresh.script(MIGRATIONS_TABLE);
        for (const migration of MIGRATIONS.filter((m) => m.id <= 12)) {
          const statements = migration.statements(words);
          if (statements !== "") await fresh.script(statements);
          const values = [migration.id, migration.name, "2020-01-01T00:00:00.000Z"];
          await fresh.query("INSERT INTO evalgate_migrations VALUES (?, ?, ?)", values);
        }
        await fresh.query(
          "INSERT INTO threads (id, title, creator, status, created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?, ?, ?)",
          ["old-thread", "Written before", "ana", "waiting", "2020-01-01", "2020-01-01", "{}"],
        );
        const store = await fresh.reviewStore();
        const thread = await store.thread("old-thread");
        await store.close();
        expect(thread?.title).toBe("Written before");
        expect(thread?.graph).toBe("review-desk");
        const applied = await appliedMigrations(fresh);
        expect(applied.map((m) => m.id)).toEqual(MIGRATIONS.map((m) => m.id));
        const before = applied.filter((m) => m.at === "2020-01-01T00:00:00.000Z");
        expect(before.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

        // At the latest migration, a database opens as it is: nothing is applied again.
        const again = await fresh.reviewStore();
        await again.close();
        expect(await appliedMigrations(fresh)).toEqual(applied);
      } finally {
        await fresh.close();
      }
    });

    it("give an accepted label kept before migration 19 the judge's score then as the reviewer's", async () => {
      const fresh = await database().fresh();
      const words = SCHEMA_WORDS[database().dialect];
      try {
        await fresh.script(MIGRATIONS_TABLE);
        for (const migration of MIGRATIONS.filter((m) => m.id <= 16)) {
          const statements = migration.statements(words);
          if (statements !== "") await fresh.script(statements);
          const values = [migration.id, migration.name, "2020-01-01T00:00:00.000Z"];
          await fresh.query("INSERT INTO evalgate_migrations VALUES (?, ?, ?)", values);
        }
        const yes = database().dialect === "sqlite" ? 1 : true;
        // decision, criterion, judge score, judge value, source, reviewer score, reviewer value
        const rows = [
          ["d1", "accepted", 0.65, "0.65", "accepted", null, null],
          ["d2", "judge-error", null, null, "accepted", null, null],
          ["d3", "marked", 0.65, "0.65", "marked", 0.3, "0.3"],
        ] as const;
        for (const [decision, criterion, score, native, source, reviewer, reviewerNative] of rows) {
          await fresh.query(
            `INSERT INTO calibration_labels (decision_id, criterion_id, thread_id, stage, content_type,
              evaluation_id, reviewer, decided_at, action, judge_passed, criterion_title, method,
              threshold, judge_score, judge_met, judge_native, source, reviewer_score, reviewer_native)
             VALUES (?, ?, 't', 'budget', 'budget', ?, 'ana', ?, 'approve', ?, ?, 'score', 0.5, ?, ?, ?, ?, ?, ?)`,
            [
              decision,
              criterion,
              `ev-${decision}`,
              `2020-01-01T0${decision.slice(1)}:00:00.000Z`,
              yes,
              criterion,
              score,
              score === null ? null : yes,
              native,
              source,
              reviewer,
              reviewerNative,
            ],
          );
        }
        const store = await fresh.reviewStore();
        const labels = await store.calibrationLabels();
        await store.close();
        expect(labels.map((l) => [l.criterionId, l.reviewerScore, l.reviewerNative])).toEqual([
          ["accepted", 0.65, 0.65],
          ["judge-error", undefined, undefined],
          ["marked", 0.3, 0.3],
        ]);
      } finally {
        await fresh.close();
      }
    });
  });
}
