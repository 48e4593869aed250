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
