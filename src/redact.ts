/**
 * Secrets out of every text that leaves the process, and bodies quoted in part only. Every pattern
 * is linear on any input (each repeated part is bounded or runs over characters that end the other
 * attempts), and long texts are cut to a window before they are scanned.
 */

/**
 * `scheme://token@`, and `scheme://user:password@` also when the password holds `/ ? # @` (a comma
 * ends it, as it ends a server of a pool: `http://a:8000/v1,ollama:m@http://b` keeps host a).
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#"'<>]+@/gi;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@:"'<>]{0,256}:[^\s"'<>,]{0,256}@/gi;

/** The value after a secret's name: `Authorization: Bearer …`, `api_key=…`, `DB_PASSWORD=…`. */
const NAMED_SECRET =
  /(?<![A-Za-z0-9])((?:proxy-)?authori[sz]ation|x-api-key|api[-_]?key|apikey|access[-_]?token|auth[-_]?token|refresh[-_]?token|id[-_]?token|client[-_]?secret|secret[-_]?key|private[-_]?key|(?:ssl)?passw(?:or)?d)(["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)(?:(?:bearer|basic|digest|token|apikey)[ \t]{1,8})?[^\s"',;&<>]+/gi;

/** `?token=…`, `&key=…`, `&sig=…` in a query string. */
const QUERY_SECRET = /([?&](?:token|key|sig|signature|auth|code)=)[^&\s#"'<>]+/gi;

const BEARER = /\b(?:Bearer|BEARER)[ \t]{1,8}[A-Za-z0-9._~+/=-]{8,}/g;

/** `Basic <base64>` only when the token looks encoded, so "Basic research" is left alone. */
const BASIC =
  /\b([Bb]asic|BASIC)[ \t]{1,8}(?=[A-Za-z0-9+/]{0,256}(?:[0-9+/=]|[a-z][A-Z]))[A-Za-z0-9+/]{8,}={0,2}/g;

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

export function redactSecretText(text: string): string {
  return withoutRememberedSecrets(text)
    .replace(URL_PASSWORD, "$1***@")
    .replace(URL_CREDENTIALS, "$1***@")
    .replace(NAMED_SECRET, "$1$2***")
    .replace(QUERY_SECRET, "$1***")
    .replace(BEARER, "***")
    .replace(BASIC, "$1 ***")
    .replace(SECRET_VALUE, "***");
}

/** The text with the credentials of its URLs left out (`http://u:p@h` → `http://h`), to be kept. */
export function withoutUrlCredentials(text: string): string {
  return text.replace(URL_PASSWORD, "$1").replace(URL_CREDENTIALS, "$1");
}

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

const MAX_CAUSE_DEPTH = 4;
/** Text fields of an error looked at (SDK errors keep the response body in `error`, `body`…; `new URL()` the URL in `input`). */
const TEXT_FIELDS = [
  "message",
  "stack",
  "error",
  "body",
  "responseBody",
  "detail",
  "url",
  "input",
] as const;

function isClean(text: string): boolean {
  return text.length <= MESSAGE_LIMIT * 4 && redactSecretText(text) === text;
}

function ownTexts(error: Record<string, unknown>): string[] {
  const texts: string[] = [];
  for (const field of TEXT_FIELDS) {
    const value = error[field];
    if (typeof value === "string") texts.push(value);
    else if (isObject(value) && field !== "message" && field !== "stack") {
      texts.push(JSON.stringify(value)?.slice(0, MESSAGE_LIMIT * 4 + 1) ?? "");
    }
  }
  return texts;
}

function isCleanChain(cause: unknown, depth: number): boolean {
  if (typeof cause === "string") return isClean(cause);
  if (!isObject(cause)) return true;
  if (depth >= MAX_CAUSE_DEPTH) return cause.cause === undefined && ownTexts(cause).every(isClean);
  return ownTexts(cause).every(isClean) && isCleanChain(cause.cause, depth + 1);
}

/** The frames of a stack (its first line repeats the message, which is replaced). */
function framesOf(stack: unknown): string {
  if (typeof stack !== "string") return "";
  const frames = stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 20);
  return frames.length === 0 ? "" : `\n${redactSecretText(frames.join("\n"))}`;
}

function safeCopy(cause: unknown, depth: number): unknown {
  if (typeof cause === "string") return boundedText(cause, MESSAGE_LIMIT);
  if (!isObject(cause)) return cause;
  const message = typeof cause.message === "string" ? cause.message : String(cause);
  const copy = new Error(boundedText(message, MESSAGE_LIMIT));
  copy.name = typeof cause.name === "string" ? cause.name.slice(0, 100) : "Error";
  copy.stack = `${copy.name}: ${copy.message}${framesOf(cause.stack)}`;
  const fields: Record<string, unknown> = {};
  if (typeof cause.code === "string" || typeof cause.code === "number") fields.code = cause.code;
  for (const key of ["status", "status_code", "statusCode"]) {
    if (typeof cause[key] === "number") fields[key] = cause[key];
  }
  if (cause.cause !== undefined && depth < MAX_CAUSE_DEPTH) {
    fields.cause = safeCopy(cause.cause, depth + 1);
  }
  return Object.assign(copy, fields);
}

/**
 * A cause fit to leave the process: as is when no text in its chain holds a secret or a flood;
 * else a plain copy, redacted and bounded, keeping the `code` and HTTP status classification reads.
 */
export function safeCause(cause: unknown): unknown {
  if (cause === undefined || isCleanChain(cause, 0)) return cause;
  return safeCopy(cause, 0);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
