import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createReviewDesk } from "../../src/desk/createReviewDesk.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import {
  BACKSTOP_AUTOCHECKPOINT_PAGES,
  deferAutoCheckpoint,
  startWalCheckpoints,
} from "../../src/orchestrator/walCheckpoints.js";
import { ScriptedChatModel } from "../doubles/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function walDatabase() {
  const dir = mkdtempSync(join(tmpdir(), "evalgate-wal-"));
  dirs.push(dir);
  const path = join(dir, "db.sqlite");
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  // This connection never copies the log itself: only the worker can.
  db.pragma("wal_autocheckpoint = 0");
  db.exec("CREATE TABLE rows (body BLOB)");
  return { path, db };
}

describe("startWalCheckpoints", () => {
  it("copies committed pages from the log into the database file from a worker", async () => {
    const { path, db } = walDatabase();
    const before = statSync(path).size;
    const insert = db.prepare("INSERT INTO rows (body) VALUES (?)");
    db.transaction(() => {
      for (let i = 0; i < 64; i++) insert.run(Buffer.alloc(8192, i));
    })();
    // Committed to the log only: the database file has not grown.
    expect(statSync(path).size).toBe(before);
    const checkpoints = startWalCheckpoints(path, 20);
    try {
      await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(64 * 8192), {
        timeout: 30_000,
        interval: 50,
      });
    } finally {
      await checkpoints.stop();
    }
    const reader = new Database(path, { readonly: true });
    expect(reader.prepare("SELECT COUNT(*) AS n FROM rows").get()).toEqual({ n: 64 });
    reader.close();
    db.close();
  });

  it("stops once however often it is asked, also when the worker could not open the file", async () => {
    const { path, db } = walDatabase();
    const running = startWalCheckpoints(path, 20);
    await Promise.all([running.stop(), running.stop()]);
    await running.stop();
    db.close();
    const missing = startWalCheckpoints(join(path, "..", "missing.sqlite"), 20);
    await missing.stop();
  });

  it("raises a connection's automatic checkpoint threshold to the backstop, and leaves other values be", () => {
    const { db } = walDatabase();
    db.pragma("wal_autocheckpoint = 1000");
    deferAutoCheckpoint(db);
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
    expect(BACKSTOP_AUTOCHECKPOINT_PAGES).toBeGreaterThan(1000);
    deferAutoCheckpoint(undefined);
    deferAutoCheckpoint({ pragma: "not a function" });
    db.close();
  });
});

describe("the review desk on a SQLite file", () => {
  it("defers the review store connection's automatic checkpoint to the backstop too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evalgate-wal-desk-"));
    dirs.push(dir);
    const model = createChatModel(new ScriptedChatModel({ responder: () => "{}" }));
    const sqlitePath = join(dir, "checkpoints.sqlite");
    const desk = await createReviewDesk({ sqlitePath, env: {}, model, jobs: { run: false } });
    try {
      const store = desk.store.sqliteConnection() as Database.Database;
      expect(store.pragma("wal_autocheckpoint", { simple: true })).toBe(
        BACKSTOP_AUTOCHECKPOINT_PAGES,
      );
    } finally {
      await desk.close();
    }
  });
});
