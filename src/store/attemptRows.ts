/**
 * Attempts counted in fixed windows (sign-ins, bearer tokens). A key is kept only as its SHA-256
 * hash; rows of ended windows are pruned as new attempts come.
 */
import { sql } from "kysely";
import { z } from "zod";
import { rowReader } from "./database.js";

export interface AttemptCount {
  count: number;
  /** ISO-8601 UTC: when the window ends and the count starts again. */
  windowEndsAt: string;
}

/** Counts one attempt, starting a new window (ending at `ends`) when the last one ended. */
export function countAttemptQuery(hash: string, ends: string, now: string) {
  return sql`INSERT INTO sign_in_attempts (key, window_ends, attempts) VALUES (${hash}, ${ends}, 1)
    ON CONFLICT (key) DO UPDATE SET
      attempts = CASE WHEN sign_in_attempts.window_ends <= ${now} THEN 1
                      ELSE sign_in_attempts.attempts + 1 END,
      window_ends = CASE WHEN sign_in_attempts.window_ends <= ${now} THEN excluded.window_ends
                         ELSE sign_in_attempts.window_ends END
    RETURNING attempts AS count, window_ends`;
}

export const pruneAttemptsQuery = (now: string) =>
  sql`DELETE FROM sign_in_attempts WHERE window_ends <= ${now}`;

export const attemptsQuery = (hash: string, now: string) =>
  sql`SELECT attempts AS count, window_ends FROM sign_in_attempts
    WHERE key = ${hash} AND window_ends > ${now}`;

const AttemptCountSchema = z.object({
  count: z.union([z.number(), z.string(), z.bigint()]).transform(Number),
  windowEndsAt: z.string(),
});

export const attemptCountOf = rowReader(AttemptCountSchema, "an attempt count row", {
  renamed: { window_ends: "windowEndsAt" },
});
