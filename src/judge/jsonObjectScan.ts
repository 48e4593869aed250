/** Finding the JSON objects in a judge's answer: brace matching and the linear object scan. */

import { type LenientObject, readObject } from "./lenientJson.js";

/**
 * Where the brace-balanced region starting at `start` ends (just past its `}`), skipping braces
 * inside double-quoted strings; undefined when it never closes.
 */
export function balancedEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "{") {
      depth++;
    } else if (c === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/**
 * For every `{` of the text, just past its matching `}`, in one pass: double-quoted strings are
 * tracked inside braces only (quotes in prose mean nothing). A `{` that never closes has no entry.
 */
function closingBraces(text: string): Map<number, number> {
  const closes = new Map<number, number>();
  const open: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === "{") {
      open.push(i);
    } else if (c === "}") {
      const start = open.pop();
      if (start !== undefined) closes.set(start, i + 1);
    } else if (c === '"' && open.length > 0) {
      inString = true;
    }
  }
  return closes;
}

export interface JsonObjectScan {
  /** Every top-level object found, in order, with where it starts and ends. */
  objects: Array<{ value: LenientObject; start: number; end: number }>;
  /** An object was still open when the text ended. */
  truncated: boolean;
  /** The first syntax error met, for the error message when nothing else is found. */
  firstError?: string;
  /**
   * Characters looked at, counted: a small multiple of the text's length whatever the text, since
   * the braces are matched in one pass and no character is read by two object attempts.
   */
  steps: number;
}

/**
 * All top-level JSON objects in a text, in order: bare, fenced, wrapped in prose. Braces inside
 * strings do not start objects, and objects inside objects are not listed on their own. A
 * malformed object is skipped as a whole (to its matching brace, or past where its reading
 * failed, whichever is further), so no character is read twice and the work is linear in the
 * length of the text; an object still open at the end of the text stops the scan and marks the
 * text truncated.
 */
export function scanJsonObjects(text: string): JsonObjectScan {
  const scan: JsonObjectScan = { objects: [], truncated: false, steps: text.length };
  let closes: Map<number, number> | undefined;
  let pos = 0;
  for (;;) {
    const start = text.indexOf("{", pos);
    scan.steps += (start === -1 ? text.length : start) - pos;
    if (start === -1) return scan;
    const { parse, visits } = readObject(text, start);
    scan.steps += visits;
    if (parse.ok) {
      scan.objects.push({ value: parse.value, start, end: parse.end });
      pos = parse.end;
      continue;
    }
    if (parse.truncated) {
      scan.truncated = true;
      return scan;
    }
    scan.firstError ??= `invalid JSON at offset ${parse.at}: ${parse.message}`;
    closes ??= closingBraces(text);
    pos = Math.max(closes.get(start) ?? start + 1, parse.at + 1);
  }
}
