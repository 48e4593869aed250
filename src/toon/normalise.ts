/**
 * Rewrites the TOON criteria dialect into spec TOON line by line, keeping each line's origin and
 * each block written, so decoder errors name the line, array and row the caller wrote.
 */
import { countOf, ToonError } from "./errors.js";
import {
  type ArrayHeader,
  type FieldNode,
  findUnquoted,
  isBracketArray,
  isDataRow,
  keepAsString,
  leafFields,
  type ObjectHeader,
  parseArrayHeader,
  parseKeyValue,
  parseObjectHeader,
  quoteLiteral,
  readSourceLines,
  type SourceLine,
  splitValues,
  type ToonDelimiter,
  trimSpaces,
} from "./tokens.js";

export interface NormalisedToon {
  readonly text: string;
  readonly lineCount: number;
  readonly blocks: readonly NormalisedBlock[];
  originalLine(normalisedLine: number): number;
}

/**
 * `[N,]` becomes `[N]`, flush rows are indented, `key{fields}:` and its row becomes an object,
 * `[a, b]` an inline array (its table a list of objects), `stringFields` values are quoted.
 */
export function normaliseToon(text: string, options: NormaliseOptions): NormalisedToon {
  return new Normaliser(readSourceLines(text), options).run();
}

/** A block written, in normalised lines, so decoder errors can name the array and the row. */
export interface NormalisedBlock {
  readonly kind: "tabular" | "keyed" | "inline" | "object";
  readonly name: string;
  readonly declared: number;
  readonly headerLine: number;
  readonly rowLines: readonly number[];
  readonly endLine: number;
  readonly listForm: boolean;
  /** The blank or comment line that ended flush rows while more rows follow it. */
  readonly endedBy?: SourceLine | undefined;
}

class NormaliseState {
  readonly out: string[] = [];
  readonly origins: number[] = [];
  readonly blocks: NormalisedBlock[] = [];
  readonly step: number;
  readonly values: ValueWriter;
  readonly dataFields: ReadonlySet<string>;

  constructor(
    readonly lines: readonly SourceLine[],
    options: NormaliseOptions,
  ) {
    this.step = options.indentSize;
    this.values = new ValueWriter(options);
    this.dataFields = options.dataFields ?? new Set();
  }

  record(block: Omit<NormalisedBlock, "endLine" | "listForm"> & { listForm?: boolean }): void {
    this.blocks.push({ listForm: false, ...block, endLine: this.out.length });
  }

  recordArray(
    kind: NormalisedBlock["kind"],
    header: ArrayHeader,
    headerLine: number,
    rowLines: readonly number[] = [],
    listForm = false,
    endedBy?: SourceLine,
  ): void {
    this.record({
      kind,
      name: header.key ?? "(root)",
      declared: header.length,
      headerLine,
      rowLines,
      listForm,
      endedBy,
    });
  }

  /** A row must hold one value per leaf field. */
  checkWidth(
    what: string,
    cells: readonly string[],
    leaves: readonly FieldNode[],
    line: number,
  ): void {
    if (cells.length === leaves.length) return;
    this.values.fail(
      `${what} has ${countOf(cells.length, "value")}, header has ${countOf(leaves.length, "field")}`,
      line,
    );
  }

  emitHeader(line: SourceLine, header: ArrayHeader): number {
    return this.emit(header.dialect ? lead(line) + header.specHead : line.raw, line.number);
  }

  emit(text: string, origin: number): number {
    this.out.push(text);
    this.origins.push(origin);
    return this.out.length;
  }
}

export function lead(line: SourceLine): string {
  return " ".repeat(line.indent) + (line.listItem ? "- " : "");
}

function isFlushRow(candidate: SourceLine, owner: SourceLine, delimiter: ToonDelimiter): boolean {
  return (
    candidate.kind === "content" &&
    !candidate.tabIndented &&
    candidate.indent === owner.indent &&
    !candidate.listItem &&
    isDataRow(candidate.content, delimiter) &&
    parseArrayHeader(candidate.content) === undefined &&
    parseObjectHeader(candidate.content) === undefined
  );
}

interface TableLayout {
  readonly line: SourceLine;
  readonly header: ArrayHeader;
  readonly rowIndent: number;
  readonly flush: boolean;
}

interface TableRows {
  readonly entries: readonly SourceLine[];
  readonly cellsOf: ReadonlyMap<SourceLine, string[]>;
  readonly after: number;
  readonly endedBy: SourceLine | undefined;
}

function rowIndentOf(state: NormaliseState, line: SourceLine): number {
  return line.indent + (line.listItem ? state.step : 0) + state.step;
}

function writeTable(state: NormaliseState, index: number, header: ArrayHeader): number {
  const layout = tableLayout(state, index, header);
  if (!layout) {
    state.recordArray("tabular", header, state.emitHeader(state.lines[index]!, header));
    return index + 1;
  }
  const rows = readTableRows(state, index, layout);
  const listForm = [...rows.cellsOf.values()].some((cells) =>
    cells.some((cell) => cell.startsWith("[") && cell.endsWith("]")),
  );
  const written = listForm
    ? writeListRows(state, layout, rows)
    : writePlainRows(state, layout, rows);
  state.recordArray("tabular", header, written.headerAt, written.rowLines, listForm, rows.endedBy);
  return rows.after;
}

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

function readTableRows(state: NormaliseState, index: number, layout: TableLayout): TableRows {
  const { line, rowIndent, flush } = layout;
  const delimiter = layout.header.delimiter;
  const isRow = (candidate: SourceLine): boolean =>
    flush
      ? isFlushRow(candidate, line, delimiter)
      : !candidate.tabIndented &&
        candidate.indent === rowIndent &&
        isDataRow(candidate.content, delimiter);
  const { entries, after, endedBy } = linesOfRows(state, index, isRow, flush);
  const rows = entries.filter((entry) => entry.kind === "content");
  const cellsOf = new Map(rows.map((row) => [row, splitValues(row.content, delimiter, true)]));
  return { entries, cellsOf, after, endedBy };
}

/**
 * A gap ends flush rows (`endedBy` is its first line when more rows follow it); blank/comment
 * lines after the last row are left unread.
 */
function linesOfRows(
  state: NormaliseState,
  index: number,
  isRow: (candidate: SourceLine) => boolean,
  gapEnds: boolean,
): { entries: SourceLine[]; after: number; endedBy?: SourceLine } {
  const entries: SourceLine[] = [];
  let pending: SourceLine[] = [];
  let cursor = index + 1;
  for (; cursor < state.lines.length; cursor++) {
    const candidate = state.lines[cursor]!;
    if (candidate.kind === "content" && !isRow(candidate)) break;
    if (candidate.kind === "content") {
      entries.push(...pending, candidate);
      pending = [];
    } else if (gapEnds) {
      const next = state.lines.slice(cursor).find((line) => line.kind === "content");
      return { entries, after: cursor, endedBy: next && isRow(next) ? candidate : undefined };
    } else pending.push(candidate);
  }
  return { entries, after: cursor - pending.length };
}

interface WrittenRows {
  readonly headerAt: number;
  readonly rowLines: number[];
}

function writeListRows(state: NormaliseState, layout: TableLayout, rows: TableRows): WrittenRows {
  const { line, header, rowIndent } = layout;
  const name = header.key ?? "(root)";
  const leaves = leafFields(header.fields ?? []);
  let position = 0;
  for (const [row, cells] of rows.cellsOf) {
    position++;
    state.checkWidth(`tabular array "${name}" row ${position}`, cells, leaves, row.number);
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

function writePlainRows(state: NormaliseState, layout: TableLayout, rows: TableRows): WrittenRows {
  const { line, header, rowIndent, flush } = layout;
  const leaves = leafFields(header.fields ?? []);
  const headerAt = state.emitHeader(line, header);
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

function writeKeyedTable(state: NormaliseState, index: number, header: ArrayHeader): number {
  const line = state.lines[index]!;
  const rowIndent = rowIndentOf(state, line);
  const leaves = leafFields(header.fields ?? []);
  const headerAt = state.emitHeader(line, header);
  const isEntry = (candidate: SourceLine): boolean =>
    !candidate.tabIndented &&
    candidate.indent === rowIndent &&
    findUnquoted(candidate.content, ":") !== -1;
  const { entries, after } = linesOfRows(state, index, isEntry, false);
  const rowLines: number[] = [];
  for (const entry of entries) {
    const pair = entry.kind === "content" ? parseKeyValue(entry.content) : undefined;
    const cells = pair ? state.values.stringCells(pair.value, header.delimiter, leaves) : "";
    const text =
      pair && cells !== pair.value
        ? `${" ".repeat(rowIndent)}${pair.keyToken}: ${cells}`
        : entry.raw;
    const at = state.emit(text, entry.number);
    if (entry.kind === "content") rowLines.push(at);
  }
  state.recordArray("keyed", header, headerAt, rowLines);
  return after;
}

class Normaliser extends NormaliseState {
  /** The keys whose blocks hold the current line, innermost last. */
  private readonly openKeys: Array<{ readonly indent: number; readonly key: string }> = [];

  run(): NormalisedToon {
    let index = 0;
    while (index < this.lines.length) index = this.next(index);
    const origins = this.origins;
    return {
      text: this.out.join("\n"),
      lineCount: this.out.length,
      blocks: this.blocks,
      originalLine: (line) => origins[line - 1] ?? origins[origins.length - 1] ?? 1,
    };
  }

  private next(index: number): number {
    const line = this.lines[index]!;
    if (line.kind !== "content" || line.tabIndented) {
      this.emit(line.raw, line.number);
      return index + 1;
    }
    this.enter(line);
    const header = parseArrayHeader(line.body);
    if (header) {
      if (header.fields && header.inline === "") {
        return header.keyed
          ? writeKeyedTable(this, index, header)
          : writeTable(this, index, header);
      }
      this.headerLine(line, header);
      return index + 1;
    }
    if (!line.listItem) {
      const object = parseObjectHeader(line.body);
      if (object) {
        const after = this.objectBlock(index, object);
        if (after !== undefined) return after;
      }
    }
    this.valueLine(line);
    return index + 1;
  }

  /** Tells the value writer whether the line lies inside a data field's block. */
  private enter(line: SourceLine): void {
    while ((this.openKeys.at(-1)?.indent ?? -1) >= line.indent) this.openKeys.pop();
    this.values.inData = this.openKeys.some((open) => this.dataFields.has(open.key));
    const key = parseArrayHeader(line.body)?.key ?? parseKeyValue(line.body)?.key;
    if (key !== undefined) {
      this.openKeys.push({ indent: line.indent + (line.listItem ? this.step : 0), key });
    }
  }

  private headerLine(line: SourceLine, header: ArrayHeader): void {
    let inline = header.inline;
    if (inline !== "" && !header.fields && this.values.isStringField(header.key)) {
      inline = splitValues(inline, header.delimiter).map(keepAsString).join(header.delimiter);
    }
    const changed = header.dialect || inline !== header.inline;
    const text = inline === "" ? header.specHead : `${header.specHead} ${inline}`;
    const at = this.emit(changed ? lead(line) + text : line.raw, line.number);
    if (header.inline !== "") {
      this.recordArray("inline", header, at);
    }
  }

  private valueLine(line: SourceLine): void {
    if (line.listItem && isBracketArray(line.body)) {
      const value = this.values.arrayValue(line.body, false, line.number);
      this.emit(lead(line) + (value === ": []" ? "[]" : value), line.number);
      return;
    }
    const pair = parseKeyValue(line.body);
    if (pair && isBracketArray(pair.value)) {
      const value = this.values.arrayValue(
        pair.value,
        this.values.isStringField(pair.key),
        line.number,
      );
      this.emit(lead(line) + pair.keyToken + value, line.number);
      return;
    }
    if (pair && pair.value !== "" && pair.value !== "[]" && !pair.value.startsWith('"')) {
      if (this.values.isStringField(pair.key)) {
        this.emit(`${lead(line)}${pair.keyToken}: ${quoteLiteral(pair.value)}`, line.number);
        return;
      }
    }
    this.emit(line.raw, line.number);
  }

  /** Undefined when the line is the spec reading instead (a key opening an indented block). */
  private objectBlock(index: number, object: ObjectHeader): number | undefined {
    const line = this.lines[index]!;
    const row = this.lines[index + 1];
    const rowFits =
      row !== undefined &&
      (row.indent === line.indent || row.indent === line.indent + this.step) &&
      isFlushRow(row, row, ",");
    const names = object.fields.map((field) => field.token).join(",");
    if (!row || !rowFits) {
      let probe = index + 1;
      while (probe < this.lines.length && this.lines[probe]!.kind !== "content") probe++;
      const block = this.lines[probe];
      if (block && block.indent > line.indent) return undefined;
      this.values.fail(
        `object "${object.key}" declares fields {${names}} but no value row follows`,
        line.number,
      );
    }
    const second = this.lines[index + 2];
    if (second && second.indent === row.indent && isFlushRow(second, row, ",")) {
      this.values.fail(
        `object "${object.key}" takes exactly one value row, found a second`,
        second.number,
      );
    }
    const leaves = leafFields(object.fields);
    const cells = splitValues(row.content, ",", true);
    this.checkWidth(`object "${object.key}" row`, cells, leaves, row.number);
    const headerAt = this.emit(`${" ".repeat(line.indent)}${object.keyToken}:`, line.number);
    const fields = this.values.fieldLines(
      object.fields,
      cells,
      { next: 0 },
      line.indent + this.step,
      row.number,
    );
    for (const text of fields) this.emit(text, row.number);
    this.record({
      kind: "object",
      name: object.key,
      declared: 1,
      headerLine: headerAt,
      rowLines: [headerAt + 1],
    });
    return index + 2;
  }
}

export interface NormaliseOptions {
  readonly indentSize: number;
  readonly stringFields: ReadonlySet<string>;
  /** Keys holding the document's own data (a JSON Schema, function args): no stringFields inside. */
  readonly dataFields?: ReadonlySet<string>;
  readonly source?: string | undefined;
}

export class ValueWriter {
  /** Whether the line being written lies inside one of the `dataFields`. */
  inData = false;

  constructor(private readonly options: NormaliseOptions) {}

  isStringField(name: string | undefined): boolean {
    return !this.inData && name !== undefined && this.options.stringFields.has(name);
  }

  fail(reason: string, line: number): never {
    throw new ToonError(reason, { line, source: this.options.source });
  }

  arrayValue(token: string, asStrings: boolean, line: number): string {
    const inner = token.slice(1, -1);
    if (trimSpaces(inner) === "") return ": []";
    const items = splitValues(inner, ",", true);
    for (const item of items) {
      if (item.startsWith("[")) this.fail(`nested inline array ${item} is not supported`, line);
    }
    const written = asStrings ? items.map(keepAsString) : items;
    return `[${items.length}]: ${written.join(",")}`;
  }

  cellValue(field: FieldNode, cell: string, line: number): string {
    if (cell.startsWith("[") && cell.endsWith("]")) {
      return this.arrayValue(cell, this.isStringField(field.name), line);
    }
    if (cell === "") return ': ""';
    return `: ${this.isStringField(field.name) ? keepAsString(cell) : cell}`;
  }

  fieldLines(
    fields: readonly FieldNode[],
    cells: readonly string[],
    cursor: { next: number },
    indent: number,
    line: number,
  ): string[] {
    const written: string[] = [];
    for (const field of fields) {
      const pad = " ".repeat(indent);
      if (field.children) {
        written.push(`${pad}${field.token}:`);
        written.push(
          ...this.fieldLines(field.children, cells, cursor, indent + this.options.indentSize, line),
        );
      } else {
        const cell = cells[cursor.next] ?? "";
        cursor.next++;
        written.push(`${pad}${field.token}${this.cellValue(field, cell, line)}`);
      }
    }
    return written;
  }

  /** A row of the wrong width is left to the decoder. */
  stringCells(cellsText: string, delimiter: ToonDelimiter, leaves: FieldNode[]): string {
    if (!leaves.some((leaf) => this.isStringField(leaf.name))) return cellsText;
    const cells = splitValues(cellsText, delimiter);
    if (cells.length !== leaves.length) return cellsText;
    const quoted = cells.map((cell, i) =>
      this.isStringField(leaves[i]?.name) ? keepAsString(cell) : cell,
    );
    return quoted.every((cell, i) => cell === cells[i]) ? cellsText : quoted.join(delimiter);
  }
}
