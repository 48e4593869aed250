import { countOf } from "./errors.js";
import {
  type ArrayHeader,
  leafFields,
  type ObjectHeader,
  parseArrayHeader,
  parseKeyValue,
  parseObjectHeader,
} from "./header.js";
import type { NormaliseOptions } from "./normaliseOptions.js";
import { isFlushRow, lead, type NormalisedBlock, NormaliseState } from "./normaliseState.js";
import { writeKeyedTable, writeTable } from "./normaliseTable.js";
import { readSourceLines, type SourceLine } from "./sourceLines.js";
import { isBracketArray, isQuoted, keepAsString, quoteLiteral, splitValues } from "./tokens.js";

export type { NormaliseOptions } from "./normaliseOptions.js";
export type { NormalisedBlock } from "./normaliseState.js";

/** Spec TOON text plus the way back to the lines the caller wrote. */
export interface NormalisedToon {
  readonly text: string;
  readonly lineCount: number;
  readonly blocks: readonly NormalisedBlock[];
  /** The original 1-based line a normalised line came from. */
  originalLine(normalisedLine: number): number;
}

/**
 * Rewrites the TOON criteria dialect into spec TOON v4 and leaves spec TOON as it is:
 * `[N,]` headers become `[N]`, table rows written flush with their header are indented under it,
 * `key{fields}:` with its one row becomes a nested object, `[a, b]` values become inline arrays
 * (a table with such cells becomes a list of objects), and `stringFields` values are quoted.
 * Comment and blank lines stay where they are; the spec decoder skips them.
 */
export function normaliseToon(text: string, options: NormaliseOptions): NormalisedToon {
  return new Normaliser(readSourceLines(text), options).run();
}

class Normaliser extends NormaliseState {
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

  /** Writes the line(s) starting at `index`; returns the index of the next unread line. */
  private next(index: number): number {
    const line = this.lines[index]!;
    if (line.kind !== "content" || line.tabIndented) {
      this.emit(line.raw, line.number);
      return index + 1;
    }
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

  /** A header with inline values or a list header: `[N,]` rewritten, stringFields applied. */
  private headerLine(line: SourceLine, header: ArrayHeader): void {
    let inline = header.inline;
    if (inline !== "" && !header.fields && this.values.isStringField(header.key)) {
      inline = splitValues(inline, header.delimiter).map(keepAsString).join(header.delimiter);
    }
    const changed = header.dialect || inline !== header.inline;
    const text = inline === "" ? header.specHead : `${header.specHead} ${inline}`;
    const at = this.emit(changed ? lead(line) + text : line.raw, line.number);
    if (header.inline !== "") {
      this.blocks.push({
        kind: "inline",
        name: header.key ?? "(root)",
        declared: header.length,
        headerLine: at,
        rowLines: [],
        endLine: at,
        listForm: false,
      });
    }
  }

  /** A `key: value` line, a list item, or anything else the decoder will judge. */
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
    if (pair && pair.value !== "" && pair.value !== "[]" && !isQuoted(pair.value)) {
      if (this.values.isStringField(pair.key)) {
        this.emit(`${lead(line)}${pair.keyToken}: ${quoteLiteral(pair.value)}`, line.number);
        return;
      }
    }
    this.emit(line.raw, line.number);
  }

  /**
   * The TOON criteria dialect's `key{fields}:` and its single row, written as a nested object.
   * Returns undefined when the line is the spec reading instead (a key opening an indented block).
   */
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
    if (cells.length !== leaves.length) {
      this.values.fail(
        `object "${object.key}" row has ${countOf(cells.length, "value")}, header has ${countOf(leaves.length, "field")}`,
        row.number,
      );
    }
    const headerAt = this.emit(`${" ".repeat(line.indent)}${object.keyToken}:`, line.number);
    const fields = this.values.fieldLines(
      object.fields,
      cells,
      { next: 0 },
      line.indent + this.step,
      row.number,
    );
    for (const text of fields) this.emit(text, row.number);
    this.blocks.push({
      kind: "object",
      name: object.key,
      declared: 1,
      headerLine: headerAt,
      rowLines: [headerAt + 1],
      endLine: this.out.length,
      listForm: false,
    });
    return index + 2;
  }
}
