import { type DecodeOptions, decode, decodeStreamSync, ToonDecodeError } from "@toon-format/toon";
import {
  findPrototypeKey,
  formatJsonPath,
  type JsonPath,
  prototypeKeyReason,
} from "../untrusted/prototypeKeys.js";
import { countOf, ToonError } from "./errors.js";
import { type NormalisedBlock, type NormalisedToon, normaliseToon } from "./normalise.js";
import { parseArrayHeader, readSourceLines } from "./tokens.js";

export interface DecodeToonOptions {
  readonly source?: string;
  /** Keys and columns whose unquoted values stay strings: `version` `1.0` → "1.0". */
  readonly stringFields?: readonly string[];
  /** Keys whose blocks are the document's own data (a JSON Schema): `stringFields` stop there. */
  readonly dataFields?: readonly string[];
  readonly strict?: boolean;
  readonly indentSize?: number;
  /**
   * Refuse `__proto__` anywhere and `constructor` holding `prototype` (default false: the spec keeps
   * them as own keys, but a document copied by assignment later must refuse them).
   */
  readonly refusePrototypeKeys?: boolean;
}

export interface LocatedToon {
  readonly value: unknown;
  /** The 1-based line of the value at `path`, else of its nearest existing ancestor. */
  lineOf(path: JsonPath): number | undefined;
}

/**
 * Decodes spec TOON v4 and the criteria dialect (`[N,]` headers, unindented rows, `key{fields}:`
 * objects, `[a, b]` arrays, `#` comments); a ToonError names the original line. LF, CRLF and a
 * lone CR each end a line.
 */
export function decodeToon(text: string, options: DecodeToonOptions = {}): unknown {
  return decodeToonWithLines(text, options).value;
}

/** decodeToon, and the line of each value (indexed on first use). */
export function decodeToonWithLines(input: string, options: DecodeToonOptions = {}): LocatedToon {
  const indentSize = options.indentSize ?? 2;
  const normalised = normaliseToon(input.replace(/\r\n?/g, "\n"), {
    indentSize,
    stringFields: new Set(options.stringFields ?? []),
    dataFields: new Set(options.dataFields ?? []),
    source: options.source,
  });
  const decoderOptions: DecodeOptions = { strict: options.strict ?? true, indentSize };
  let value: unknown;
  try {
    value = decode(normalised.text, decoderOptions);
  } catch (error) {
    throw toToonError(error, normalised, options.source);
  }
  let lines: ReadonlyMap<string, number> | undefined;
  const lineOf = (path: JsonPath): number | undefined => {
    lines ??= indexValueLines(normalised.text, decoderOptions);
    for (let depth = path.length; depth >= 0; depth--) {
      const line = lines.get(JSON.stringify(path.slice(0, depth)));
      if (line !== undefined) return normalised.originalLine(line);
    }
    return undefined;
  };
  const found = options.refusePrototypeKeys === true ? findPrototypeKey(value) : undefined;
  if (found !== undefined) {
    const reason = `${prototypeKeyReason(found)} (at ${formatJsonPath(found.path)})`;
    throw new ToonError(reason, { line: lineOf(found.path) ?? 1, source: options.source });
  }
  return { value, lineOf };
}

type Frame =
  | { readonly kind: "object"; readonly path: JsonPath; key: string | undefined }
  | { readonly kind: "array"; readonly path: JsonPath; next: number };

/**
 * The line each value of a spec TOON text starts on (path → 1-based line), by replaying the
 * spec decoder's events; the text must decode.
 */
export function indexValueLines(text: string, options: DecodeOptions): Map<string, number> {
  const sourceLines = readSourceLines(text);
  const firstContent = sourceLines.find((line) => line.kind === "content");
  // The decoder reads one line past the first root field before it reports that field.
  const rootIsPlainObject = firstContent !== undefined && !firstContent.content.startsWith("[");
  const lines = new Map<string, number>();
  const record = (path: JsonPath, line: number): void => {
    const key = JSON.stringify(path);
    if (!lines.has(key)) lines.set(key, line);
  };

  let pulled = 0;
  function* feed(): Generator<string> {
    for (const line of text.split("\n")) {
      pulled++;
      yield line;
    }
  }

  const stack: Frame[] = [];
  let rootKeys = 0;
  const openValue = (): JsonPath => {
    const top = stack[stack.length - 1];
    if (!top) {
      if (firstContent) record([], firstContent.number);
      return [];
    }
    if (top.kind === "array") {
      const path = [...top.path, top.next];
      top.next++;
      record(path, pulled);
      return path;
    }
    return [...top.path, top.key ?? ""];
  };

  for (const event of decodeStreamSync(feed(), options)) {
    switch (event.type) {
      case "key": {
        const top = stack[stack.length - 1];
        if (top?.kind !== "object") break;
        top.key = event.key;
        const atRoot = stack.length === 1;
        const firstRootField = atRoot && rootKeys === 0 && rootIsPlainObject;
        if (atRoot) rootKeys++;
        record(
          [...top.path, event.key],
          firstRootField ? (firstContent?.number ?? pulled) : pulled,
        );
        break;
      }
      case "startObject":
        stack.push({ kind: "object", path: openValue(), key: undefined });
        break;
      case "startArray":
        stack.push({ kind: "array", path: openValue(), next: 0 });
        break;
      case "primitive":
        openValue();
        break;
      case "endObject":
      case "endArray":
        stack.pop();
        break;
    }
  }
  return lines;
}

/** The spec decoder's error, located in the caller's text and naming the array and row. */
export function toToonError(
  error: unknown,
  normalised: NormalisedToon,
  source: string | undefined,
): unknown {
  if (!(error instanceof ToonDecodeError) || error.line === undefined) return error;
  const reason = error.message.replace(/^Line \d+: /, "");
  return new ToonError(
    describe(reason, error.line, normalised),
    { line: normalised.originalLine(error.line), source },
    { cause: error },
  );
}

function describe(reason: string, line: number, normalised: NormalisedToon): string {
  const within = (kind: NormalisedBlock["kind"]): NormalisedBlock | undefined =>
    normalised.blocks
      .filter((block) => block.kind === kind && block.headerLine <= line && line <= block.endLine)
      .at(-1);

  const rows = /^Expected (\d+) (tabular rows|list-form items), but (?:got (\d+)|found more)$/.exec(
    reason,
  );
  if (rows) {
    const table = within("tabular");
    const isTable = table && (rows[2] === "tabular rows" || table.listForm);
    if (table && isTable) {
      const actual = rows[3] ?? String(table.rowLines.length);
      const short = Number(actual) < Number(rows[1]) ? gapReason(table) : "";
      return `tabular array "${table.name}" declares ${countOf(rows[1] ?? 0, "row")} but has ${actual}${short}`;
    }
    if (rows[2] === "list-form items") {
      const name = listAbove(normalised.text.split("\n"), line) ?? "(root)";
      return `list "${name}" declares ${countOf(rows[1] ?? 0, "item")} but has ${rows[3] ?? "more"}`;
    }
  }
  if (reason === "Tabs are not allowed in indentation in strict mode") {
    return "a tab indents this line: indent with spaces";
  }

  const width = /^Expected (\d+) tabular row values, but got (\d+)$/.exec(reason);
  const table = within("tabular");
  if (width && table) {
    const row = table.rowLines.indexOf(line) + 1;
    const which = row > 0 ? `row ${row}` : "a row";
    return `tabular array "${table.name}" ${which} has ${countOf(width[2] ?? 0, "value")}, header has ${countOf(width[1] ?? 0, "field")}`;
  }

  const inline = /^Expected (\d+) inline-form values, but got (\d+)$/.exec(reason);
  const array = within("inline");
  if (inline && array) {
    return `inline array "${array.name}" declares ${countOf(inline[1] ?? 0, "value")} but has ${inline[2]}`;
  }

  const entries = /^Expected (\d+) keyed entries, but got (\d+)$/.exec(reason);
  const keyed = within("keyed");
  if (entries && keyed) {
    return `keyed object "${keyed.name}" declares ${countOf(entries[1] ?? 0, "entry", "entries")} but has ${entries[2]}`;
  }
  const cells = /^Expected (\d+) keyed entry cells, but got (\d+)$/.exec(reason);
  if (cells && keyed) {
    const entry = keyed.rowLines.indexOf(line) + 1;
    const which = entry > 0 ? `entry ${entry}` : "an entry";
    return `keyed object "${keyed.name}" ${which} has ${countOf(cells[2] ?? 0, "value")}, header has ${countOf(cells[1] ?? 0, "field")}`;
  }
  return reason;
}

/** Why flush rows stopped short: the blank or comment line between them. */
function gapReason(table: NormalisedBlock): string {
  const gap = table.endedBy;
  if (gap === undefined) return "";
  const what = gap.kind === "comment" ? "a comment" : "a blank line";
  return `: ${what} at line ${gap.number} ends the table (keep the rows together)`;
}

/** The key of the list header an item line sits under. */
function listAbove(lines: readonly string[], line: number): string | undefined {
  const indentOf = (text: string): number => text.length - text.trimStart().length;
  const own = indentOf(lines[line - 1] ?? "");
  for (let at = line - 2; at >= 0; at--) {
    const text = lines[at] ?? "";
    if (text.trim() === "" || indentOf(text) >= own) continue;
    return parseArrayHeader(text.trim().replace(/^- /, ""))?.key;
  }
  return undefined;
}
