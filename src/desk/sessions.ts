/**
 * Page sessions on the desk: signing in records a session in the review store (the hash of a
 * random id; the id itself lives only in the reviewer's sealed cookie), every page request looks
 * it up, and signing out ends it. The rows are in the shared database, so a session ended on one
 * replica is refused by all of them at once; revoking a reviewer ends their sessions as well.
 */
import { randomBytes } from "node:crypto";
import type { Reviewer } from "../store/reviewers.js";
import type { ReviewStore } from "../store/reviewStore.js";
import { hashToken } from "../store/tokens.js";

/** Longest session id accepted; anything longer is not one of ours and is not hashed. */
const MAX_SESSION_ID_CHARS = 128;

function usableId(sessionId: string): boolean {
  return sessionId !== "" && sessionId.length <= MAX_SESSION_ID_CHARS;
}

export async function openSession(
  store: ReviewStore,
  token: string,
  expiresAt: Date,
): Promise<{ sessionId: string; reviewer: Reviewer } | undefined> {
  if (token.trim() === "") return undefined;
  const reviewer = await store.reviewerByTokenHash(hashToken(token));
  if (reviewer === undefined) return undefined;
  const sessionId = randomBytes(32).toString("base64url");
  await store.openSession(
    { idHash: hashToken(sessionId), reviewer: reviewer.name, expiresAt: expiresAt.toISOString() },
    new Date().toISOString(),
  );
  return { sessionId, reviewer };
}

export async function sessionReviewer(
  store: ReviewStore,
  sessionId: string,
): Promise<Reviewer | undefined> {
  if (!usableId(sessionId)) return undefined;
  return store.sessionReviewer(hashToken(sessionId), new Date().toISOString());
}

export async function endSession(store: ReviewStore, sessionId: string): Promise<void> {
  if (!usableId(sessionId)) return;
  await store.endSession(hashToken(sessionId), new Date().toISOString());
}
