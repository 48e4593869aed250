/**
 * The judge cache in the checkpoints' SQLite file: answers survive closing and reopening the
 * file, the TTL is applied to an entry's age, and an evaluation run twice on the same file (each
 * time with a new connection, as a new process would) asks the model only the first time.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { openJudgeCacheStore } from "../../src/store/index.js";
import { SqliteJudgeCacheStore } from "../../src/store/judgeCacheStore.js";
import { ScriptedChatModel } from "../doubles/index.js";
import {
  answerByTitle,
  BUDGET_CONTENT,
  BUDGET_TITLES,
  budgetAnswersAll,
  budgetCatalog,
  judgeOf,
} from "./helpers.js";

const entry = (key: string, answer: string, createdAt: string) => ({
  key,
  answer,
  model: "ollama:judge",
  purpose: "criterion",
  createdAt,
});

describe("the judge cache on SQLite", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "evalgate-judge-cache-"));
    file = join(dir, "checkpoints.sqlite");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps answers across connections, replaces an entry and applies the age limit", async () => {
    const first = SqliteJudgeCacheStore.open(file);
    await first.put(entry("k1", "old answer", "2026-01-01T10:00:00.000Z"));
    await first.put(entry("k1", "new answer", "2026-01-01T11:00:00.000Z"));
    await first.close();

    const second = await openJudgeCacheStore({ sqlitePath: file, env: {} });
    expect(await second.get("k1", undefined)).toBe("new answer");
    expect(await second.get("k1", "2026-01-01T11:00:00.000Z")).toBe("new answer");
    expect(await second.get("k1", "2026-01-01T11:00:00.001Z")).toBeUndefined();
    expect(await second.get("k2", undefined)).toBeUndefined();
    await second.close();

    // The table is part of the store's schema, recorded as a migration.
    const db = new Database(file, { readonly: true });
    const names = db.prepare("SELECT name FROM evalgate_migrations").all() as { name: string }[];
    expect(names.some((n) => n.name.startsWith("judge cache"))).toBe(true);
    expect(db.prepare("SELECT count(*) AS n FROM judge_cache").get()).toEqual({ n: 1 });
    db.close();
  });

  it("answers a second run of an unchanged evaluation from the file, without a model call", async () => {
    const catalog = await budgetCatalog();
    const run = async () => {
      const store = SqliteJudgeCacheStore.open(file);
      const model = new ScriptedChatModel({ responder: answerByTitle(budgetAnswersAll(0.6)) });
      try {
        const result = await evaluateContent({
          content: BUDGET_CONTENT,
          catalog,
          model: judgeOf(model),
          cache: { store },
        });
        return { result, calls: model.calls.length };
      } finally {
        await store.close();
      }
    };
    const total = Object.keys(BUDGET_TITLES).length;
    const first = await run();
    expect(first.calls).toBe(total);
    const second = await run();
    expect(second.calls).toBe(0);
    expect(second.result.cacheHits).toBe(total);
    expect(second.result.overallScore).toBeCloseTo(0.6, 10);
  });
});
