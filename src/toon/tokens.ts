import { escapeString } from "@toon-format/toon";

export type ToonDelimiter = "," | "\t" | "|";

/** TOON treats tabs and other whitespace as part of a token. */
export function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === " ") start++;
  while (end > start && text[end - 1] === " ") end--;
  return text.slice(start, end);
}

export function findClosingQuote(text: string, openIndex: number): number {
  let i = openIndex + 1;
  while (i < text.length) {
    if (text[i] === "\\" && i + 1 < text.length) {
      i += 2;
      continue;
    }
    if (text[i] === '"') return i;
    i++;
  }
  return -1;
}

export function firstUnquoted(
  text: string,
  start: number,
  found: (char: string) => boolean,
): number {
  let inQuotes = false;
  for (let i = start; i < text.length; i++) {
    const current = text[i] ?? "";
    if (current === "\\" && inQuotes && i + 1 < text.length) i++;
    else if (current === '"') inQuotes = !inQuotes;
    else if (!inQuotes && found(current)) return i;
  }
  return -1;
}

export function findUnquoted(text: string, char: string, start = 0): number {
  return firstUnquoted(text, start, (current) => current === char);
}

export function findMatching(text: string, openIndex: number, open: string, close: string): number {
  let depth = 0;
  return firstUnquoted(text, openIndex, (current) => {
    if (current === open) depth++;
    else if (current === close) depth--;
    return current === close && depth === 0;
  });
}

/** As a spec decoder splits a row; with `bracketCells` the dialect's `[a, b]` stays one value. */
export function splitValues(
  text: string,
  delimiter: ToonDelimiter,
  bracketCells = false,
): string[] {
  if (text === "") return [];
  const values: string[] = [];
  let start = 0;
  for (;;) {
    let from = start;
    while (text[from] === " ") from++;
    if (bracketCells && text[from] === "[") {
      const close = findMatching(text, from, "[", "]");
      from = close === -1 ? text.length : close + 1;
    }
    const end = findUnquoted(text, delimiter, from);
    values.push(trimSpaces(text.slice(start, end === -1 ? undefined : end)));
    if (end === -1) return values;
    start = end + 1;
  }
}

export function isBracketArray(token: string): boolean {
  return token.length >= 2 && token.startsWith("[") && token.endsWith("]") && token !== "[]";
}

export function isQuoted(token: string): boolean {
  return token.startsWith('"');
}

export function quoteLiteral(literal: string): string {
  return `"${escapeString(literal)}"`;
}

export function keepAsString(token: string): string {
  return token === "" || isQuoted(token) ? token : quoteLiteral(token);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  '"': '"',
};

export function keyName(token: string): string {
  const trimmed = trimSpaces(token);
  if (!trimmed.startsWith('"')) return trimmed;
  const inner = trimmed.slice(1, trimmed.endsWith('"') ? -1 : undefined);
  return inner.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (whole, sequence: string) => {
    if (sequence.length === 5) return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    return SIMPLE_ESCAPES[sequence] ?? whole;
  });
}

/** No unquoted colon, or a delimiter before the first one (the spec decoder's rule in a table). */
export function isDataRow(content: string, delimiter: ToonDelimiter): boolean {
  const colon = findUnquoted(content, ":");
  if (colon === -1) return true;
  const delimiterAt = findUnquoted(content, delimiter);
  return delimiterAt !== -1 && delimiterAt < colon;
}
