/**
 * The run settings of each thread (what `evalgate run` started it with: model, revision limit,
 * panel of judges…), one row per thread in `thread_run_settings` (migration 18). A thread's row is
 * written in the transaction that records the thread, and replaced as a whole; settings kept by
 * an earlier version in a file are imported once, only for threads that have none here yet. The
 * store keeps them as a JSON object; their shape is the command's (checked when they are read).
 */
import { sql } from "kysely";
import { z } from "zod";
import { now, rowReader } from "./database.js";

/** A thread's run settings as the store keeps them: a JSON object. */
export const StoredRunSettingsSchema = z.record(z.string(), z.unknown());
export type StoredRunSettings = z.infer<typeof StoredRunSettingsSchema>;

/** Writes (or replaces) the thread's run settings, in the caller's transaction or alone. */
export function upsertRunSettings(threadId: string, settings: StoredRunSettings) {
  return sql`INSERT INTO thread_run_settings (thread_id, settings, updated_at)
    VALUES (${threadId}, ${JSON.stringify(settings)}, ${now()})
    ON CONFLICT (thread_id) DO UPDATE SET settings = excluded.settings,
      updated_at = excluded.updated_at`;
}

/** Adds the thread's run settings when it has none (an import never overwrites). */
export function insertMissingRunSettings(threadId: string, settings: StoredRunSettings) {
  return sql`INSERT INTO thread_run_settings (thread_id, settings, updated_at)
    VALUES (${threadId}, ${JSON.stringify(settings)}, ${now()})
    ON CONFLICT (thread_id) DO NOTHING`;
}

export function selectRunSettings(threadId: string) {
  return sql`SELECT settings FROM thread_run_settings WHERE thread_id = ${threadId}`;
}

const runSettingsRowOf = rowReader(
  z.object({ settings: StoredRunSettingsSchema }),
  "a thread's run settings row",
  { json: ["settings"] },
);

/** The settings of a row (undefined for no row); a row that is not a JSON object is refused. */
export function runSettingsOf(row: unknown): StoredRunSettings | undefined {
  return row === undefined ? undefined : runSettingsRowOf(row).settings;
}
