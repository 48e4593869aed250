/** Reviewer tokens: random, shown once, kept only as a SHA-256 hash. */
import { createHash, randomBytes } from "node:crypto";

/** A new bearer token: `egr_` and 32 random bytes, base64url. */
export function newReviewerToken(): string {
  return `egr_${randomBytes(32).toString("base64url")}`;
}

/** SHA-256, hex: of a token, an attempt key, a trace blob. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
