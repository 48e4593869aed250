/**
 * Page sessions: a cookie holding the sign-in's id and the CSRF token sealed with AES-256-GCM
 * (HttpOnly, SameSite=Strict, Secure over https); never the reviewer's token. Replicas share
 * sessions when they share the secret (EVALGATE_SESSION_SECRET); without one, each makes its own key.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";

const SESSION_COOKIE = "evalgate_session";
const SESSION_SECONDS = 12 * 60 * 60;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const SessionSchema = z.object({
  csrf: z.string().min(16),
  /** Absent before signing in. */
  sessionId: z.string().min(1).max(128).optional(),
  expiresAt: z.number(),
});
export type Session = z.infer<typeof SessionSchema>;

export type SessionKeeper = ReturnType<typeof createSessionKeeper>;

/** A 32-byte key from the secret (any length), or a random one for this process. */
export function sessionKey(secret: string | undefined): Buffer {
  if (secret === undefined || secret === "") return randomBytes(32);
  return createHash("sha256").update(secret, "utf8").digest();
}

export function newSession(): Session {
  return {
    csrf: randomBytes(24).toString("base64url"),
    expiresAt: Date.now() + SESSION_SECONDS * 1000,
  };
}

function seal(key: Buffer, session: Session): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(session), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

function unseal(key: Buffer, sealed: string): Session | undefined {
  try {
    const bytes = Buffer.from(sealed, "base64url");
    if (bytes.length <= IV_BYTES + TAG_BYTES || bytes.length > 4096) return undefined;
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString("utf8");
    const parsed = SessionSchema.safeParse(JSON.parse(text));
    if (!parsed.success || parsed.data.expiresAt < Date.now()) return undefined;
    return parsed.data;
  } catch {
    // Tampered, truncated or sealed with another key: no session.
    return undefined;
  }
}

/** Directly, or through a proxy that says so. */
function cameOverHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  return c.req.header("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

export function createSessionKeeper(key: Buffer) {
  return {
    /** The request's session, or a new one without a sign-in (not yet saved). */
    read(c: Context): Session {
      const sealed = getCookie(c, SESSION_COOKIE);
      return (sealed === undefined ? undefined : unseal(key, sealed)) ?? newSession();
    },
    save(c: Context, session: Session) {
      setCookie(c, SESSION_COOKIE, seal(key, session), {
        httpOnly: true,
        sameSite: "Strict",
        secure: cameOverHttps(c),
        path: "/",
        maxAge: Math.max(0, Math.floor((session.expiresAt - Date.now()) / 1000)),
      });
    },
    clear(c: Context) {
      deleteCookie(c, SESSION_COOKIE, { path: "/", secure: cameOverHttps(c) });
    },
  };
}
