import { countOf } from "./errors.js";
import { type ArrayHeader, leafFields, parseKeyValue } from "./header.js";
import { isFlushRow, lead, type NormaliseState } from "./normaliseState.js";
import type { SourceLine } from "./sourceLines.js";
import { findUnquoted, isDataRow, splitValues, trimSpaces } from "./tokens.js";

/** Where a table's rows sit: indented under its header, or flush (the TOON criteria dialect). */
interface TableLayout {
  readonly line: SourceLine;
  readonly header: ArrayHeader;
  readonly rowIndent: number;
  readonly flush: boolean;
}

/** A table's rows as read: the lines kept (rows and the blank/comment lines between them). */
interface TableRows {
  readonly entries: readonly SourceLine[];
  readonly cellsOf: ReadonlyMap<SourceLine, string[]>;
  /** Index of the next unread line. */
  readonly after: number;
}

function rowIndentOf(state: NormaliseState, line: SourceLine): number {
  return line.indent + (line.listItem ? state.step : 0) + state.step;
}

/** A tabular header `key[N]{fields}:` (or `[N,]`) and its rows, indented or flush. */
export function writeTable(state: NormaliseState, index: number, header: ArrayHeader): number {
  const layout = tableLayout(state, index, header);
  if (!layout) return writeEmptyTable(state, index, header);
  const rows = readTableRows(state, index, layout);
  const listForm = [...rows.cellsOf.values()].some((cells) =>
    cells.some((cell) => cell.startsWith("[") && cell.endsWith("]")),
  );
  const written = listForm
    ? writeListRows(state, layout, rows)
    : writePlainRows(state, layout, rows);
  state.blocks.push({
    kind: "tabular",
    name: header.key ?? "(root)",
    declared: header.length,
    headerLine: written.headerAt,
    rowLines: written.rowLines,
    endLine: state.out.length,
    listForm,
  });
  return rows.after;
}

/** How the rows after the header are laid out, or undefined when the table has no rows. */
function tableLayout(
  state: NormaliseState,
  index: number,
  header: ArrayHeader,
): TableLayout | undefined {
  const line = state.lines[index]!;
  const rowIndent = rowIndentOf(state, line);
  let probe = index + 1;
  while (probe < state.lines.length && state.lines[probe]!.kind !== "content") probe++;
  const first = state.lines[probe];
  const gap = probe > index + 1;
  if (first && !first.tabIndented && first.indent === rowIndent) {
    return { line, header, rowIndent, flush: false };
  }
  const flush =
    !gap && !line.listItem && first !== undefined && isFlushRow(first, line, header.delimiter);
  return flush ? { line, header, rowIndent, flush: true } : undefined;
}

/** A table header with no rows under it, written alone. */
function writeEmptyTable(state: NormaliseState, index: number, header: ArrayHeader): number {
  const line = state.lines[index]!;
  const at = state.emit(header.dialect ? lead(line) + header.specHead : line.raw, line.number);
  state.blocks.push({
    kind: "tabular",
    name: header.key ?? "(root)",
    declared: header.length,
    headerLine: at,
    rowLines: [],
    endLine: at,
    listForm: false,
  });
  return index + 1;
}

/** Reads the data rows after the header; blank/comment lines after the last row are left unread. */
function readTableRows(state: NormaliseState, index: number, layout: TableLayout): TableRows {
  const { line, rowIndent, flush } = layout;
  const delimiter = layout.header.delimiter;
  const entries: SourceLine[] = [];
  let pending: SourceLine[] = [];
  let cursor = index + 1;
  while (cursor < state.lines.length) {
    const candidate = state.lines[cursor]!;
    if (candidate.kind !== "content") {
      if (flush) break;
      pending.push(candidate);
      cursor++;
      continue;
    }
    const row = flush
      ? isFlushRow(candidate, line, delimiter)
      : !candidate.tabIndented &&
        candidate.indent === rowIndent &&
        isDataRow(candidate.content, delimiter);
    if (!row) break;
    entries.push(...pending, candidate);
    pending = [];
    cursor++;
  }
  const rows = entries.filter((entry) => entry.kind === "content");
  const cellsOf = new Map(rows.map((row) => [row, splitValues(row.content, delimiter, true)]));
  return { entries, cellsOf, after: cursor - pending.length };
}

interface WrittenRows {
  readonly headerAt: number;
  readonly rowLines: number[];
}

/** A table with `[a, b]` cells, rewritten as a list of objects (one item per row). */
function writeListRows(state: NormaliseState, layout: TableLayout, rows: TableRows): WrittenRows {
  const { line, header, rowIndent } = layout;
  const name = header.key ?? "(root)";
  const leaves = leafFields(header.fields ?? []);
  let position = 0;
  for (const [row, cells] of rows.cellsOf) {
    position++;
    if (cells.length !== leaves.length) {
      state.values.fail(
        `tabular array "${name}" row ${position} has ${countOf(cells.length, "value")}, header has ${countOf(leaves.length, "field")}`,
        row.number,
      );
    }
  }
  const headerAt = state.emit(`${lead(line)}${header.keyToken}[${header.length}]:`, line.number);
  const rowLines: number[] = [];
  for (const entry of rows.entries) {
    const cells = rows.cellsOf.get(entry);
    if (!cells) {
      state.emit(entry.raw, entry.number);
      continue;
    }
    const fieldIndent = rowIndent + state.step;
    const item = state.values.fieldLines(
      header.fields ?? [],
      cells,
      { next: 0 },
      fieldIndent,
      entry.number,
    );
    const [firstLine = "", ...rest] = item;
    rowLines.push(state.emit(`${" ".repeat(rowIndent)}- ${trimSpaces(firstLine)}`, entry.number));
    for (const text of rest) state.emit(text, entry.number);
  }
  return { headerAt, rowLines };
}

/** A table kept tabular: rows indented under the header, stringFields cells quoted. */
function writePlainRows(state: NormaliseState, layout: TableLayout, rows: TableRows): WrittenRows {
  const { line, header, rowIndent, flush } = layout;
  const leaves = leafFields(header.fields ?? []);
  const headerAt = state.emit(
    header.dialect ? lead(line) + header.specHead : line.raw,
    line.number,
  );
  const rowLines: number[] = [];
  for (const entry of rows.entries) {
    if (entry.kind !== "content") {
      state.emit(entry.raw, entry.number);
      continue;
    }
    const content = state.values.stringCells(entry.content, header.delimiter, leaves);
    const text = flush || content !== entry.content ? " ".repeat(rowIndent) + content : entry.raw;
    rowLines.push(state.emit(text, entry.number));
  }
  return { headerAt, rowLines };
}

/** A keyed header `key[N:]{fields}:` and its `entry: cells` lines (spec only). */
export function writeKeyedTable(state: NormaliseState, index: number, header: ArrayHeader): number {
  const line = state.lines[index]!;
  const rowIndent = rowIndentOf(state, line);
  const leaves = leafFields(header.fields ?? []);
  const headerAt = state.emit(
    header.dialect ? lead(line) + header.specHead : line.raw,
    line.number,
  );
  const rowLines: number[] = [];
  let pending: SourceLine[] = [];
  let cursor = index + 1;
  while (cursor < state.lines.length) {
    const candidate = state.lines[cursor]!;
    if (candidate.kind !== "content") {
      pending.push(candidate);
      cursor++;
      continue;
    }
    const entry =
      !candidate.tabIndented &&
      candidate.indent === rowIndent &&
      findUnquoted(candidate.content, ":") !== -1;
    if (!entry) break;
    for (const skipped of pending) state.emit(skipped.raw, skipped.number);
    pending = [];
    const pair = parseKeyValue(candidate.content);
    const cells = pair ? state.values.stringCells(pair.value, header.delimiter, leaves) : "";
    const text =
      pair && cells !== pair.value
        ? `${" ".repeat(rowIndent)}${pair.keyToken}: ${cells}`
        : candidate.raw;
    rowLines.push(state.emit(text, candidate.number));
    cursor++;
  }
  state.blocks.push({
    kind: "keyed",
    name: header.key ?? "(root)",
    declared: header.length,
    headerLine: headerAt,
    rowLines,
    endLine: state.out.length,
    listForm: false,
  });
  return cursor - pending.length;
}
