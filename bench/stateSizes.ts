/** Sizes for bench/state.ts: a thread's bytes in a SQLite checkpoint file, a bigger catalog. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";

/** The thread's checkpoint and write rows, and its rows in the trace store, in bytes. */
export function threadBytes(sqlitePath: string, threadId: string) {
  const db = new Database(sqlitePath, { readonly: true });
  try {
    const sum = (sql: string) =>
      Number((db.prepare(sql).get(threadId) as { n: number | null }).n ?? 0);
    const checkpoints = sum(
      `SELECT SUM(LENGTH(checkpoint) + LENGTH(metadata) + LENGTH(checkpoint_id) * 2 + LENGTH(thread_id))
       AS n FROM checkpoints WHERE thread_id = ?`,
    );
    const writes = sum(
      `SELECT SUM(LENGTH(value) + LENGTH(channel) + LENGTH(task_id) + LENGTH(checkpoint_id) + LENGTH(thread_id))
       AS n FROM writes WHERE thread_id = ?`,
    );
    const hasTraces = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'evalgate_traces'")
      .get();
    const traces =
      hasTraces === undefined
        ? 0
        : sum(
            "SELECT SUM(LENGTH(body) + LENGTH(id) + LENGTH(evaluation_id)) AS n FROM evalgate_traces WHERE thread_id = ?",
          );
    return { state: checkpoints + writes, traces };
  } finally {
    db.close();
  }
}

/** A folder with a research catalog of `count` criteria: the shipped ones, repeated. */
export function catalogDir(work: string, count: number): string {
  const shipped = JSON.parse(readFileSync("config/evaluation/criteria/research.json", "utf8")) as {
    criteria: Array<Record<string, unknown>>;
  };
  const criteria = Array.from({ length: count }, (_, i) => {
    const base = shipped.criteria[i % shipped.criteria.length] ?? {};
    return { ...base, id: `${String(base.id)}_${i}`, weight: 1 / count };
  });
  const dir = join(work, `criteria-${count}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "research.json"), JSON.stringify({ ...shipped, criteria }, null, 2));
  return dir;
}
