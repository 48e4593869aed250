/**
 * The page sessions' statements, the same on SQLite and PostgreSQL (`?` placeholders; the
 * PostgreSQL store numbers them). A session is found only while it is open, unexpired and its
 * reviewer is not revoked; times are ISO-8601 UTC strings, compared as text.
 */
import type { Reviewer } from "./reviewers.js";
import { reviewerOf } from "./rows.js";

export const PRUNE_SESSIONS_SQL = "DELETE FROM review_sessions WHERE expires_at <= ?";

export const INSERT_SESSION_SQL =
  "INSERT INTO review_sessions (id_hash, reviewer, created_at, expires_at) VALUES (?, ?, ?, ?)";

export const SESSION_REVIEWER_SQL = `
  SELECT r.* FROM review_sessions s JOIN reviewers r ON r.name = s.reviewer
  WHERE s.id_hash = ? AND s.ended_at IS NULL AND s.expires_at > ? AND r.revoked_at IS NULL`;

export const END_SESSION_SQL =
  "UPDATE review_sessions SET ended_at = ? WHERE id_hash = ? AND ended_at IS NULL";

/** The reviewer of a session row joined with its reviewer, or undefined for no row. */
export function sessionReviewerOf(row: unknown): Reviewer | undefined {
  if (row === undefined) return undefined;
  const reviewer = reviewerOf(row);
  return { name: reviewer.name, role: reviewer.role };
}
