/**
 * Keeping secrets and floods out of messages, for every room of evalgate: credentials in URLs (a
 * model server's, a database's), authorization headers, API keys and tokens are replaced by `***`
 * wherever text leaves the process (error messages, causes, traces, states, command output), and
 * a response body is quoted in part only.
 *
 * Every pattern is linear on any input: each repeated part either has a fixed upper bound or runs
 * over characters that end the runs of the other attempts, so no text can make a scan go back
 * over itself. Long texts are cut to a window before they are scanned, then to their limit.
 */

/** `scheme://user:password@` (or `scheme://token@`) as it appears in free text. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#"'<>]+@/gi;

/**
 * `Authorization: Bearer …`, `"authorization":"Basic …"`, `x-api-key: …`, `api_key=…`,
 * `client_secret: …`, `password=…`: the value after a secret's name (the scheme word included).
 */
const NAMED_SECRET =
  /\b((?:proxy-)?authori[sz]ation|x-api-key|api[-_]?key|apikey|access[-_]?token|auth[-_]?token|refresh[-_]?token|id[-_]?token|client[-_]?secret|secret[-_]?key|private[-_]?key|passw(?:or)?d)(["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)(?:(?:bearer|basic|digest|token|apikey)[ \t]{1,8})?[^\s"',;&<>]+/gi;

/** `?token=…`, `&key=…`, `&sig=…` in a query string. */
const QUERY_SECRET = /([?&](?:token|key|sig|signature|auth|code)=)[^&\s#"'<>]+/gi;

/** A bearer credential: `Bearer <token>` (the word in capitals or capitalised, as HTTP writes it). */
const BEARER = /\b(?:Bearer|BEARER)[ \t]{1,8}[A-Za-z0-9._~+/=-]{8,}/g;

/**
 * A basic credential: `Basic <base64>`, where the token looks encoded (a digit, `+`, `/` or `=`, or a
 * capital after a small letter), so prose such as "Basic research" is left alone.
 */
const BASIC =
  /\b([Bb]asic|BASIC)[ \t]{1,8}(?=[A-Za-z0-9+/]{0,256}(?:[0-9+/=]|[a-z][A-Z]))[A-Za-z0-9+/]{8,}={0,2}/g;

/** Values shaped like a provider key or token, wherever they appear. */
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

/** The most of a response body (or of any quoted text) an error quotes. */
export const BODY_QUOTE_LIMIT = 500;
/** The most of an error message kept (the target, the detail and the hint fit well within it). */
export const MESSAGE_LIMIT = 2_000;
/**
 * How much more than the limit is scanned before cutting: redaction shortens text, so the window
 * is larger than what is shown. The window ends at the last break (white space, a quote, `,` `;`
 * `&` `<` `>`) in its last WINDOW_EDGE characters, so that a token is not cut in two and left
 * too short for its pattern.
 */
const WINDOW_FACTOR = 4;
const WINDOW_EDGE = 256;
const BREAK = /[\s"',;&<>]/;

/** Where to cut a long text before it is scanned (see WINDOW_FACTOR). */
function windowEnd(text: string, window: number): number {
  for (let at = window; at > window - WINDOW_EDGE; at--) {
    if (BREAK.test(text.charAt(at))) return at;
  }
  return window;
}

/** The most secrets remembered by value (rememberSecret). */
const MAX_REMEMBERED_SECRETS = 32;
/** The shortest value remembered (a shorter one would blank ordinary words). */
const MIN_REMEMBERED_SECRET = 8;
const rememberedSecrets = new Set<string>();

/**
 * A secret the process was configured with (an API key read from the environment), replaced by
 * `***` wherever redactSecretText runs, whatever its shape and whatever stands before it.
 */
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

/**
 * The same as redactSecretText: every credential in the text replaced by `***` (the URL's user
 * name and password, authorization headers, keys and tokens).
 */
export function redactCredentials(text: string): string {
  return redactSecretText(text);
}

/** The URL without its user name and password (`http://***@host:11434`). */
export function redactUrl(url: string): string {
  return redactSecretText(url);
}

/**
 * At most `limit` characters of a text, redacted, saying how many were left out. Only a window
 * of the text is scanned, so a body of any size costs the same.
 */
export function boundedText(text: string, limit: number): string {
  const window = limit * WINDOW_FACTOR + WINDOW_EDGE;
  const cut = text.length > window;
  const scanned = redactSecretText(cut ? text.slice(0, windowEnd(text, window)) : text);
  if (!cut && scanned.length <= limit) return scanned;
  const left = Math.max(0, text.length - limit).toLocaleString("en-US");
  return `${scanned.slice(0, limit)}… (${left} more characters not shown)`;
}

/** At most BODY_QUOTE_LIMIT characters of a body, redacted, saying how many were left out. */
export function quoteBody(text: string, limit = BODY_QUOTE_LIMIT): string {
  return boundedText(text, limit);
}

/** Parameter names whose value is a secret (`apiKey`, `openAIApiKey`, `Authorization`, …). */
const SECRET_NAME =
  /api[-_]?key|secret|passw(or)?d|authori[sz]ation|credential|cookie|(access|auth|bearer|session|refresh|id)[-_]?token|^token$/i;

/** The most levels of nesting read; deeper values are replaced (parameters are shallow). */
const MAX_SECRET_DEPTH = 8;

/**
 * A copy of a value (call parameters, settings) fit for a trace or a page: a field whose name says
 * it is a secret becomes `***`, and every string loses credentials and key-shaped values.
 */
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
