/**
 * Each thread's run settings (what `evalgate run` started it with), one JSON object per thread,
 * written with the thread; settings an earlier version kept in a file are imported once.
 */
import { sql } from "kysely";
import { z } from "zod";
import { now, rowReader } from "./database.js";

export const StoredRunSettingsSchema = z.record(z.string(), z.unknown());
export type StoredRunSettings = z.infer<typeof StoredRunSettingsSchema>;

export function upsertRunSettings(threadId: string, settings: StoredRunSettings) {
  return sql`INSERT INTO thread_run_settings (thread_id, settings, updated_at)
    VALUES (${threadId}, ${JSON.stringify(settings)}, ${now()})
    ON CONFLICT (thread_id) DO UPDATE SET settings = excluded.settings,
      updated_at = excluded.updated_at`;
}

/** An import never overwrites. */
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

export function runSettingsOf(row: unknown): StoredRunSettings | undefined {
  return row === undefined ? undefined : runSettingsRowOf(row).settings;
}
