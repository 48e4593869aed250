/**
 * Attempts counted in fixed windows (sign-ins and bearer tokens per client address, sign-ins per
 * account), the same statements on SQLite and PostgreSQL. A key is kept only as its SHA-256 hash
 * (no client address is stored); a row whose window has ended counts from 1 again, and such rows
 * are pruned as new attempts come.
 */
import { createHash } from "node:crypto";
import { z } from "zod";

/** The attempts counted under a key in its current window. */
export interface AttemptCount {
  count: number;
  /** ISO-8601 UTC: when the window ends and the count starts again. */
  windowEndsAt: string;
}

export function attemptKeyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** (key hash, window end if new, now, now): counts one attempt, starting a new window when due. */
export const COUNT_ATTEMPT_SQL = `
  INSERT INTO sign_in_attempts (key, window_ends, attempts) VALUES (?, ?, 1)
  ON CONFLICT (key) DO UPDATE SET
    attempts = CASE WHEN sign_in_attempts.window_ends <= ? THEN 1
                    ELSE sign_in_attempts.attempts + 1 END,
    window_ends = CASE WHEN sign_in_attempts.window_ends <= ? THEN excluded.window_ends
                       ELSE sign_in_attempts.window_ends END
  RETURNING attempts, window_ends`;

/** (now): windows that ended. */
export const PRUNE_ATTEMPTS_SQL = "DELETE FROM sign_in_attempts WHERE window_ends <= ?";

/** (key hash, now): the count of a window still open. */
export const ATTEMPTS_SQL =
  "SELECT attempts, window_ends FROM sign_in_attempts WHERE key = ? AND window_ends > ?";

const AttemptColumns = z.object({
  attempts: z.union([z.number(), z.string(), z.bigint()]).transform(Number),
  window_ends: z.string(),
});

export function attemptCountOf(row: unknown): AttemptCount | undefined {
  if (row === undefined) return undefined;
  const r = AttemptColumns.parse(row);
  return { count: r.attempts, windowEndsAt: r.window_ends };
}
