/**
 * Keeping secrets and floods out of messages: credentials in URLs are replaced by `***` wherever a
 * URL enters a message, a trace or a state, and a response body is quoted in part only.
 */

/** `scheme://user:password@` (or `scheme://token@`) as it appears in free text. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/** The most of a response body an error quotes. */
export const BODY_QUOTE_LIMIT = 1_024;

/** The URL without its user name and password (`http://***@host:11434`). */
export function redactUrl(url: string): string {
  return redactCredentials(url);
}

/** The text with the credentials of every URL in it replaced by `***`. */
export function redactCredentials(text: string): string {
  return text.replace(URL_CREDENTIALS, "$1***@");
}

/** At most `limit` characters of a body, saying how many were left out. */
export function quoteBody(text: string, limit = BODY_QUOTE_LIMIT): string {
  if (text.length <= limit) return text;
  const left = (text.length - limit).toLocaleString("en-US");
  return `${text.slice(0, limit)}… (${left} more characters not shown)`;
}

/** Parameter names whose value is a secret (`apiKey`, `openAIApiKey`, `Authorization`, …). */
const SECRET_NAME =
  /api[-_]?key|secret|passw(or)?d|authori[sz]ation|credential|cookie|(access|auth|bearer|session|refresh|id)[-_]?token|^token$/i;

/** Values shaped like a provider key or a bearer credential, wherever they appear. */
const SECRET_VALUE =
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}|\b(?:ghp|gho|ghs|xox[abps])[-_][A-Za-z0-9_-]{12,}|\bAKIA[0-9A-Z]{16}\b|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g;

/** The most levels of nesting read; deeper values are replaced (parameters are shallow). */
const MAX_SECRET_DEPTH = 8;

/** The text with URL credentials and key-shaped values replaced by `***`. */
export function redactSecretText(text: string): string {
  return redactCredentials(text).replace(SECRET_VALUE, "***");
}

/**
 * A copy of a value (call parameters, settings) fit for a trace or a page: a field whose name says
 * it is a secret becomes `***`, and every string loses URL credentials and key-shaped values.
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
