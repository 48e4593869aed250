/**
 * The judge cache on PostgreSQL: a hit, a miss, the TTL applied to an entry's age, unusable
 * answers and model errors never kept, two writers of one key (two pools, as two processes would
 * be), and a cache that stops answering read as a warning, never as a failed evaluation.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../src/criteria/model.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import type { JudgeCacheEntry } from "../../src/engine/judgeCache.js";
import { openJudgeCacheStore, PostgresJudgeCacheStore } from "../../src/store/index.js";
import { ScriptedChatModel } from "../doubles/index.js";
import {
  answerByTitle,
  BUDGET_CONTENT,
  BUDGET_TITLES,
  budgetAnswersAll,
  budgetCatalog,
  judgeOf,
} from "../engine/helpers.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";

const FIVE = Object.keys(BUDGET_TITLES).length;

let cluster: PostgresCluster | undefined;
let url = "";
let store: PostgresJudgeCacheStore;
let direct: pg.Pool;
let catalog: Catalog;

beforeAll(async () => {
  cluster = await startPostgres();
  url = cluster.url;
  store = await PostgresJudgeCacheStore.open(url, 2);
  direct = new pg.Pool({ connectionString: url, max: 1 });
  catalog = await budgetCatalog();
}, 300_000);

afterAll(async () => {
  await store?.close();
  await direct?.end();
  await cluster?.stop();
});

/** A name of this test's own, so tests sharing a database never see each other's rows. */
const unique = (what: string) => `${what}-${randomUUID()}`;

const entry = (key: string, answer: string, createdAt: string): JudgeCacheEntry => ({
  key,
  answer,
  model: "ollama:judge",
  purpose: "criterion",
  createdAt,
});

/** The rows a scripted judge named `model` left in the table. */
async function rowsOf(model: string): Promise<number> {
  const { rows } = await direct.query(
    "SELECT count(*)::int AS n FROM judge_cache WHERE model LIKE $1",
    [`%${model}%`],
  );
  return (rows[0] as { n: number }).n;
}

/** One evaluation with a fresh scripted judge named `model`; how many calls it made. */
async function evaluateCounting(
  model: string,
  cacheStore: PostgresJudgeCacheStore,
  options: {
    answers?: Record<string, string | Error>;
    ttlSeconds?: number;
    now?: () => Date;
  } = {},
) {
  const judge = new ScriptedChatModel({
    model,
    responder: answerByTitle(options.answers ?? budgetAnswersAll(0.8)),
  });
  const result = await evaluateContent({
    content: BUDGET_CONTENT,
    catalog,
    model: judgeOf(judge),
    mode: "per-criterion",
    cache: {
      store: cacheStore,
      ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }),
    },
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { result, calls: judge.calls.length };
}

describe("the judge cache store on PostgreSQL", () => {
  it("misses an unknown key, hits a kept one, and replaces an entry under the same key", async () => {
    const key = unique("key");
    expect(await store.get(key, undefined)).toBeUndefined();
    await store.put(entry(key, "first answer", "2026-01-01T10:00:00.000Z"));
    expect(await store.get(key, undefined)).toBe("first answer");
    await store.put(entry(key, "second answer", "2026-01-01T11:00:00.000Z"));
    expect(await store.get(key, undefined)).toBe("second answer");
    expect(await store.get(unique("other"), undefined)).toBeUndefined();
  });

  it("applies the age limit: an entry written before notBefore is not returned", async () => {
    const key = unique("aged");
    await store.put(entry(key, "kept", "2026-01-01T10:00:00.000Z"));
    expect(await store.get(key, "2026-01-01T10:00:00.000Z")).toBe("kept");
    expect(await store.get(key, "2026-01-01T10:00:00.001Z")).toBeUndefined();
  });

  it("is opened by openJudgeCacheStore from a PostgreSQL DATABASE_URL, the table a migration", async () => {
    const opened = await openJudgeCacheStore({ env: { DATABASE_URL: url } });
    try {
      expect(opened.kind).toBe("postgres");
      const key = unique("opened");
      await opened.put(entry(key, "through the factory", "2026-01-01T10:00:00.000Z"));
      expect(await store.get(key, undefined)).toBe("through the factory");
    } finally {
      await opened.close();
    }
    const { rows } = await direct.query("SELECT name FROM evalgate_migrations");
    expect(rows.some((r: { name: string }) => r.name.startsWith("judge cache"))).toBe(true);
  });

  it("two writers of one key at once: both succeed and one row holds one of their answers", async () => {
    const other = await PostgresJudgeCacheStore.open(url, 2);
    const key = unique("race");
    const writes = Array.from({ length: 10 }, (_, i) => ({
      writer: i % 2 === 0 ? store : other,
      entry: entry(key, `answer ${i}`, `2026-01-01T10:00:0${i}.000Z`),
    }));
    try {
      await Promise.all(writes.map((w) => w.writer.put(w.entry)));
      const { rows } = await direct.query("SELECT answer FROM judge_cache WHERE key = $1", [key]);
      expect(rows).toHaveLength(1);
      const written = writes.map((w) => w.entry.answer);
      expect(written).toContain((rows[0] as { answer: string }).answer);
      expect(await other.get(key, undefined)).toBe((rows[0] as { answer: string }).answer);
    } finally {
      await other.close();
    }
  });
});

describe("evaluateContent with the judge cache on PostgreSQL", () => {
  it("answers an unchanged evaluation from the database, without a model call", async () => {
    const model = unique("judge");
    const first = await evaluateCounting(model, store);
    expect(first.calls).toBe(FIVE);
    expect(first.result.cacheHits).toBe(0);
    expect(await rowsOf(model)).toBe(FIVE + 1); // and the injection guard's answer

    // A new pool, as a new process would open.
    const reopened = await PostgresJudgeCacheStore.open(url, 1);
    try {
      const second = await evaluateCounting(model, reopened);
      expect(second.calls).toBe(0);
      expect(second.result.cacheHits).toBe(FIVE);
      expect(second.result.overallScore).toBeCloseTo(0.8, 10);
    } finally {
      await reopened.close();
    }
  });

  it("does not use an answer older than the TTL", async () => {
    const model = unique("judge");
    const at = (iso: string) => () => new Date(iso);
    await evaluateCounting(model, store, { ttlSeconds: 60, now: at("2026-01-01T10:00:00Z") });
    const within = await evaluateCounting(model, store, {
      ttlSeconds: 60,
      now: at("2026-01-01T10:00:59Z"),
    });
    expect(within.calls).toBe(0);
    const after = await evaluateCounting(model, store, {
      ttlSeconds: 60,
      now: at("2026-01-01T10:01:01Z"),
    });
    expect(after.calls).toBe(FIVE);
    expect(after.result.cacheHits).toBe(0);
  });

  it("never keeps an unusable answer or a model error", async () => {
    const model = unique("judge");
    const answers: Record<string, string | Error> = {
      ...budgetAnswersAll(0.8),
      [BUDGET_TITLES.alignment]: "I would rather not say.",
      [BUDGET_TITLES.compliance]: new Error("connection refused"),
    };
    const first = await evaluateCounting(model, store, { answers });
    expect(first.result.notEvaluated).toHaveLength(2);
    expect(await rowsOf(model)).toBe(FIVE - 2 + 1); // and the injection guard's answer

    const second = await evaluateCounting(model, store);
    expect(second.calls).toBe(2);
    expect(second.result.cacheHits).toBe(FIVE - 2);
    expect(second.result.notEvaluated).toEqual([]);
    expect(await rowsOf(model)).toBe(FIVE + 1);
  });

  it("two evaluations of the same content at once on two pools: one row per call, then hits", async () => {
    const model = unique("judge");
    const other = await PostgresJudgeCacheStore.open(url, 2);
    try {
      const [a, b] = await Promise.all([
        evaluateCounting(model, store),
        evaluateCounting(model, other),
      ]);
      expect(a.result.notEvaluated).toEqual([]);
      expect(b.result.notEvaluated).toEqual([]);
      expect(await rowsOf(model)).toBe(FIVE + 1); // and the injection guard's answer
      const third = await evaluateCounting(model, other);
      expect(third.calls).toBe(0);
      expect(third.result.cacheHits).toBe(FIVE);
    } finally {
      await other.close();
    }
  });

  it("a cache whose database went away is a warning, and the model answers", async () => {
    const gone = await PostgresJudgeCacheStore.open(url, 1);
    await gone.close();
    const model = unique("judge");
    const run = await evaluateCounting(model, gone);
    expect(run.calls).toBe(FIVE);
    expect(run.result.notEvaluated).toEqual([]);
    expect(run.result.cacheHits).toBe(0);
    expect(run.result.warnings.some((w) => w.startsWith("judge cache: could not read"))).toBe(true);
    expect(await rowsOf(model)).toBe(0);
  });
});
