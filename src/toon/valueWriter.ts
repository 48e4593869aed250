import { ToonError } from "./errors.js";
import type { FieldNode } from "./header.js";
import { keepAsString, splitValues, type ToonDelimiter, trimSpaces } from "./tokens.js";

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
