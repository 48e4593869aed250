/**
 * The run settings of each thread (what `evalgate run` started it with: model, revision limit,
 * panel of judges…), one row per thread in `thread_run_settings` (migration 18). A thread's row is
 * written in the transaction that records the thread, and replaced as a whole; settings kept by
 * an earlier version in a file are imported once, only for threads that have none here yet. The
 * store keeps them as a JSON object; their shape is the command's (checked when they are read).
 */
import { sql } from "kysely";
import { z } from "zod";
import { parseUntrustedJson } from "../untrusted/json.js";
import { now } from "./database.js";
import { storeDataInvalid } from "./errors.js";

/** A thread's run settings as the store keeps them: a JSON object. */
export const StoredRunSettingsSchema = z.record(z.string(), z.unknown());
export type StoredRunSettings = z.infer<typeof StoredRunSettingsSchema>;

const RowSchema = z.object({ settings: z.string() });

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

/** The settings of a row (undefined for no row); a row that is not a JSON object is refused. */
export function runSettingsOf(row: unknown): StoredRunSettings | undefined {
  if (row === undefined) return undefined;
  const parsed = RowSchema.safeParse(row);
  if (!parsed.success) throw storeDataInvalid("a thread's run settings row is not readable");
  const value = parseUntrustedJson(parsed.data.settings, (_problem, description) =>
    storeDataInvalid(`a thread's stored run settings are not JSON: ${description}`),
  );
  const settings = StoredRunSettingsSchema.safeParse(value);
  if (!settings.success) throw storeDataInvalid("a thread's stored run settings are not an object");
  return settings.data;
}
