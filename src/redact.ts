/**
 * Secrets out of every text that leaves the process, and bodies quoted in part only. Every pattern
 * is linear on any input (each repeated part is bounded or runs over characters that end the other
 * attempts), and long texts are cut to a window before they are scanned.
 */

/** `scheme://user:password@` (or `scheme://token@`). */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#"'<>]+@/gi;

/** The value after a secret's name: `Authorization: Bearer …`, `api_key=…`, `password=…`. */
const NAMED_SECRET =
  /\b((?:proxy-)?authori[sz]ation|x-api-key|api[-_]?key|apikey|access[-_]?token|auth[-_]?token|refresh[-_]?token|id[-_]?token|client[-_]?secret|secret[-_]?key|private[-_]?key|passw(?:or)?d)(["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)(?:(?:bearer|basic|digest|token|apikey)[ \t]{1,8})?[^\s"',;&<>]+/gi;

/** `?token=…`, `&key=…`, `&sig=…` in a query string. */
const QUERY_SECRET = /([?&](?:token|key|sig|signature|auth|code)=)[^&\s#"'<>]+/gi;

const BEARER = /\b(?:Bearer|BEARER)[ \t]{1,8}[A-Za-z0-9._~+/=-]{8,}/g;

/** `Basic <base64>` only when the token looks encoded, so "Basic research" is left alone. */
const BASIC =
  /\b([Bb]asic|BASIC)[ \t]{1,8}(?=[A-Za-z0-9+/]{0,256}(?:[0-9+/=]|[a-z][A-Z]))[A-Za-z0-9+/]{8,}={0,2}/g;

/** Values shaped like a provider key or token. */
const SECRET_VALUE = new RegExp(
  [
    String.raw`\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}`,
    String.raw`\b(?:ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{20,}`,
    String.raw`\bgithub_pat_[A-Za-z0-9_]{20,}`,
    String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
    String.raw`\bAKIA[0-9A-Z]{16}\b`,
    String.raw`\bAIza[0-9A-Za-z_-]{30,}`,
    String.raw`\b(?:gsk|hf)_[A-Za-z0-9]{20,}`,
  ].join("|"),
  "g",
);

const BODY_QUOTE_LIMIT = 500;
export const MESSAGE_LIMIT = 2_000;
/**
 * Redaction shortens text, so more than the limit is scanned; the window ends at a break in its
 * last WINDOW_EDGE characters so that no token is cut too short for its pattern.
 */
const WINDOW_FACTOR = 4;
const WINDOW_EDGE = 256;
const BREAK = /[\s"',;&<>]/;

function windowEnd(text: string, window: number): number {
  for (let at = window; at > window - WINDOW_EDGE; at--) {
    if (BREAK.test(text.charAt(at))) return at;
  }
  return window;
}

const MAX_REMEMBERED_SECRETS = 32;
/** A shorter value would blank ordinary words. */
const MIN_REMEMBERED_SECRET = 8;
const rememberedSecrets = new Set<string>();

/** A secret the process was configured with (an API key), redacted whatever its shape. */
export function rememberSecret(value: string): void {
  const secret = value.trim();
  if (secret.length < MIN_REMEMBERED_SECRET || rememberedSecrets.has(secret)) return;
  if (rememberedSecrets.size >= MAX_REMEMBERED_SECRETS) return;
  rememberedSecrets.add(secret);
}

function withoutRememberedSecrets(text: string): string {
  let out = text;
  for (const secret of rememberedSecrets) {
    if (out.includes(secret)) out = out.split(secret).join("***");
  }
  return out;
}

/** The text with every credential, authorization value, API key and token replaced by `***`. */
export function redactSecretText(text: string): string {
  return withoutRememberedSecrets(text)
    .replace(URL_CREDENTIALS, "$1***@")
    .replace(NAMED_SECRET, "$1$2***")
    .replace(QUERY_SECRET, "$1***")
    .replace(BEARER, "***")
    .replace(BASIC, "$1 ***")
    .replace(SECRET_VALUE, "***");
}

/** At most `limit` characters of a text, redacted, saying how many were left out. */
export function boundedText(text: string, limit = BODY_QUOTE_LIMIT): string {
  const window = limit * WINDOW_FACTOR + WINDOW_EDGE;
  const cut = text.length > window;
  const scanned = redactSecretText(cut ? text.slice(0, windowEnd(text, window)) : text);
  if (!cut && scanned.length <= limit) return scanned;
  const left = Math.max(0, text.length - limit).toLocaleString("en-US");
  return `${scanned.slice(0, limit)}… (${left} more characters not shown)`;
}

const SECRET_NAME =
  /api[-_]?key|secret|passw(or)?d|authori[sz]ation|credential|cookie|(access|auth|bearer|session|refresh|id)[-_]?token|^token$/i;

const MAX_SECRET_DEPTH = 8;

/** A copy fit for a trace: a field named like a secret becomes `***`, strings are redacted. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactSecretText(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_SECRET_DEPTH) return "***";
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      SECRET_NAME.test(key) && field !== undefined && field !== null
        ? "***"
        : redactSecrets(field, depth + 1),
    ]),
  );
}
