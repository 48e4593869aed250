/**
 * Page sessions: the store keeps the hash of a random id (the id lives only in the sealed cookie),
 * so a session ended on one replica is refused by all of them at once.
 */
import { randomBytes } from "node:crypto";
import type { Reviewer } from "../store/reviewers.js";
import type { ReviewStore } from "../store/reviewStore.js";
import { hashToken } from "../store/tokens.js";

/** Anything longer than ours is not hashed. */
const usableId = (sessionId: string) => sessionId !== "" && sessionId.length <= 128;

/** A new session's id for the reviewer (its token checked already), valid until `expiresAt`. */
export async function openSession(
  store: ReviewStore,
  reviewer: Reviewer,
  expiresAt: Date,
): Promise<string> {
  const sessionId = randomBytes(32).toString("base64url");
  await store.openSession(
    { idHash: hashToken(sessionId), reviewer: reviewer.name, expiresAt: expiresAt.toISOString() },
    new Date().toISOString(),
  );
  return sessionId;
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
