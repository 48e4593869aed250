import { escapeString } from "@toon-format/toon";

export type ToonDelimiter = "," | "\t" | "|";

/** TOON treats tabs and other whitespace as part of a token. */
export function trimSpaces(text: string): string {
  return text.replace(/^ +| +$/g, "");
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

export function quoteLiteral(literal: string): string {
  return `"${escapeString(literal)}"`;
}

export function keepAsString(token: string): string {
  return token === "" || token.startsWith('"') ? token : quoteLiteral(token);
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

export interface SourceLine {
  readonly number: number;
  readonly raw: string;
  readonly kind: "blank" | "comment" | "content";
  readonly indent: number;
  /** Tab-indented lines are left to the decoder as they are. */
  readonly tabIndented: boolean;
  readonly content: string;
  readonly listItem: boolean;
  readonly body: string;
}

export function readSourceLines(text: string): SourceLine[] {
  return text.split("\n").map((raw, index) => {
    let line = index === 0 && raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
    if (line.endsWith("\r")) line = line.slice(0, -1);
    const leading = /^[ \t]*/.exec(line)?.[0] ?? "";
    const tabIndented = leading.includes("\t");
    const indent = tabIndented ? leading.indexOf("\t") : leading.length;
    const content = trimSpaces(line.slice(indent));
    const kind =
      content === "" ? "blank" : !tabIndented && content.startsWith("#") ? "comment" : "content";
    const listItem = content === "-" || content.startsWith("- ");
    const body = listItem ? content.slice(1).replace(/^ +/, "") : content;
    return { number: index + 1, raw, kind, indent, tabIndented, content, listItem, body };
  });
}

/** One entry of a header's field list; a group (`name{a,b}`) has children. */
export interface FieldNode {
  readonly token: string;
  readonly name: string;
  readonly children?: readonly FieldNode[];
}

export interface ArrayHeader {
  /** "" for a keyless header. */
  readonly keyToken: string;
  readonly key: string | undefined;
  readonly length: number;
  readonly delimiter: ToonDelimiter;
  readonly keyed: boolean;
  readonly fields: readonly FieldNode[] | undefined;
  readonly inline: string;
  /** The header up to its colon as spec TOON (`[N,]` becomes `[N]`). */
  readonly specHead: string;
  readonly dialect: boolean;
}

export interface ObjectHeader {
  readonly keyToken: string;
  readonly key: string;
  readonly fields: readonly FieldNode[];
}

/** `value` is "" when the key opens a nested block. */
export interface KeyValue {
  readonly keyToken: string;
  readonly key: string;
  readonly value: string;
}

const BRACKET = /^(0|[1-9]\d*)(:?)([\t|,]?)$/;
const BARE_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Undefined for anything not a well-formed header: such lines reach the decoder untouched. */
export function parseArrayHeader(body: string): ArrayHeader | undefined {
  let bracketStart: number;
  if (body.startsWith('"')) {
    const close = findClosingQuote(body, 0);
    if (close === -1 || body[close + 1] !== "[") return undefined;
    bracketStart = close + 1;
  } else {
    bracketStart = findUnquoted(body, "[");
  }
  if (bracketStart === -1) return undefined;
  const firstColon = findUnquoted(body, ":");
  if (firstColon === -1 || firstColon < bracketStart) return undefined;
  const bracketEnd = findUnquoted(body, "]", bracketStart);
  if (bracketEnd === -1) return undefined;
  const bracket = BRACKET.exec(body.slice(bracketStart + 1, bracketEnd));
  // `[N:,]` is invalid spec: left for the decoder.
  if (!bracket || (bracket[2] === ":" && bracket[3] === ",")) return undefined;
  const keyToken = body.slice(0, bracketStart);
  if (keyToken.endsWith(" ") || keyToken.endsWith("\t")) return undefined;

  const dialect = bracket[3] === ",";
  const delimiter: ToonDelimiter = bracket[3] === "\t" || bracket[3] === "|" ? bracket[3] : ",";
  let colon = bracketEnd + 1;
  let fields: FieldNode[] | undefined;
  if (body[colon] === "{") {
    const braceEnd = findMatching(body, colon, "{", "}");
    if (braceEnd === -1) return undefined;
    fields = parseFieldList(body.slice(colon + 1, braceEnd), delimiter);
    if (!fields) return undefined;
    colon = braceEnd + 1;
  }
  if (body[colon] !== ":") return undefined;

  const specBracket = `${bracket[1]}${bracket[2]}${dialect ? "" : (bracket[3] ?? "")}`;
  return {
    keyToken,
    key: keyToken === "" ? undefined : keyName(keyToken),
    length: Number.parseInt(bracket[1] ?? "0", 10),
    delimiter,
    keyed: bracket[2] === ":",
    fields,
    inline: trimSpaces(body.slice(colon + 1)),
    specHead: `${body.slice(0, bracketStart + 1)}${specBracket}${body.slice(bracketEnd, colon + 1)}`,
    dialect,
  };
}

export function parseObjectHeader(body: string): ObjectHeader | undefined {
  if (!body.endsWith(":")) return undefined;
  let braceStart: number;
  if (body.startsWith('"')) {
    const close = findClosingQuote(body, 0);
    if (close === -1) return undefined;
    braceStart = close + 1;
  } else {
    braceStart = body.indexOf("{");
    if (braceStart <= 0 || !BARE_KEY.test(body.slice(0, braceStart))) return undefined;
  }
  if (body[braceStart] !== "{") return undefined;
  const braceEnd = findMatching(body, braceStart, "{", "}");
  if (braceEnd !== body.length - 2) return undefined;
  const fields = parseFieldList(body.slice(braceStart + 1, braceEnd), ",");
  if (!fields) return undefined;
  const keyToken = body.slice(0, braceStart);
  return { keyToken, key: keyName(keyToken), fields };
}

export function parseKeyValue(body: string): KeyValue | undefined {
  if (body.startsWith('"')) {
    const close = findClosingQuote(body, 0);
    if (close === -1) return undefined;
    let colon = close + 1;
    while (body[colon] === " ") colon++;
    if (body[colon] !== ":") return undefined;
    const keyToken = body.slice(0, close + 1);
    return { keyToken, key: keyName(keyToken), value: trimSpaces(body.slice(colon + 1)) };
  }
  const colon = findUnquoted(body, ":");
  if (colon === -1) return undefined;
  const keyToken = trimSpaces(body.slice(0, colon));
  return { keyToken, key: keyToken, value: trimSpaces(body.slice(colon + 1)) };
}

/** Each row carries one value per leaf. */
export function leafFields(fields: readonly FieldNode[]): FieldNode[] {
  return fields.flatMap((field) => (field.children ? leafFields(field.children) : [field]));
}

function parseFieldList(text: string, delimiter: ToonDelimiter): FieldNode[] | undefined {
  // Split at the delimiter outside quotes and outside nested `{…}` groups.
  let depth = 0;
  const cut = (from: number) =>
    firstUnquoted(text, from, (char) => {
      if (char === "{") depth++;
      else if (char === "}") depth--;
      return char === delimiter && depth === 0;
    });
  const entries: string[] = [];
  for (let start = 0, end = cut(0); ; start = end + 1, end = cut(start)) {
    entries.push(text.slice(start, end === -1 ? undefined : end));
    if (end === -1) break;
  }

  const fields: FieldNode[] = [];
  for (const entry of entries) {
    const field = parseField(trimSpaces(entry), delimiter);
    if (!field) return undefined;
    fields.push(field);
  }
  return fields;
}

function parseField(entry: string, delimiter: ToonDelimiter): FieldNode | undefined {
  if (entry === "") return undefined;
  const groupStart = findUnquoted(entry, "{");
  if (groupStart === -1) return { token: entry, name: keyName(entry) };
  const token = entry.slice(0, groupStart);
  if (token === "" || token.endsWith(" ")) return undefined;
  if (findMatching(entry, groupStart, "{", "}") !== entry.length - 1) return undefined;
  const children = parseFieldList(entry.slice(groupStart + 1, -1), delimiter);
  return children ? { token, name: keyName(token), children } : undefined;
}
