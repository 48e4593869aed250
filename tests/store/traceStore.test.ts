/**
 * The trace store on SQLite: the shared cases (traceStoreCases.ts) on a real file, and the
 * migration that makes its tables in the review store's schema.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteReviewStore } from "../../src/store/sqliteStore.js";
import { SqliteTraceStore } from "../../src/store/traceStore.js";
import { type TraceStoreHarness, trace, traceStoreCases } from "./traceStoreCases.js";

let dir = "";
let db: Database.Database;
let harness: TraceStoreHarness;

function connection(path: string): Database.Database {
  const opened = new Database(path);
  opened.pragma("journal_mode = WAL");
  opened.pragma("busy_timeout = 10000");
  return opened;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "evalgate-trace-store-"));
  const path = join(dir, "traces.sqlite");
  db = connection(path);
  harness = {
    store: new SqliteTraceStore(db),
    query: async (sql, values = []) => {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...values) as Record<string, unknown>[];
      statement.run(...values);
      return [];
    },
    other: async () => {
      const second = connection(path);
      return {
        store: new SqliteTraceStore(second),
        close: async () => {
          second.close();
        },
      };
    },
  };
});

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the trace store on SQLite", () => {
  traceStoreCases(() => harness);

  it("the review store's migrations make its tables, and a store on that file uses them", async () => {
    const path = join(dir, "migrated.sqlite");
    const review = await SqliteReviewStore.open(path);
    await review.close();
    const opened = connection(path);
    try {
      const names = opened
        .prepare("SELECT name FROM evalgate_migrations WHERE name LIKE 'trace store%'")
        .all();
      expect(names).toHaveLength(1);
      const tables = opened
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'evalgate_%'")
        .all()
        .map((r) => (r as { name: string }).name);
      expect(tables).toEqual(
        expect.arrayContaining(["evalgate_evaluation_traces", "evalgate_trace_blobs"]),
      );
      expect(tables).not.toContain("evalgate_traces");
      const store = new SqliteTraceStore(opened);
      const sent = [trace(1, { user: "on a migrated file" })];
      await store.saveTraces({ evaluationId: "e-1", threadId: "t-1" }, sent);
      expect(await store.getTraces({ threadId: "t-1" })).toEqual(sent);
    } finally {
      opened.close();
    }
  });
});
