/**
 * Page sessions: the store keeps the hash of a random id (the id lives only in the sealed cookie),
 * so a session ended on one replica is refused by all of them at once.
 */
import { randomBytes } from "node:crypto";
import type { Reviewer } from "../store/reviewers.js";
import { hashToken } from "../store/tokens.js";
import type { ReviewStore } from "../store/types.js";

/** Anything longer than ours is not hashed. */
const usableId = (sessionId: string) => sessionId !== "" && sessionId.length <= 128;

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
