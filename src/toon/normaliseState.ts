import { isHeaderLine } from "./header.js";
import type { NormaliseOptions } from "./normaliseOptions.js";
import type { SourceLine } from "./sourceLines.js";
import { isDataRow, type ToonDelimiter } from "./tokens.js";
import { ValueWriter } from "./valueWriter.js";

/**
 * A block the normaliser wrote, kept so that decoder errors can name the array and the row.
 * Line numbers are in the normalised text.
 */
export interface NormalisedBlock {
  readonly kind: "tabular" | "keyed" | "inline" | "object";
  /** The block's key, or "(root)" for a keyless root header. */
  readonly name: string;
  /** The count its header declares (rows, entries or values). */
  readonly declared: number;
  readonly headerLine: number;
  /** The first normalised line of each row, in order. */
  readonly rowLines: readonly number[];
  readonly endLine: number;
  /** True when the table was rewritten as a list of objects (it has `[a, b]` cells). */
  readonly listForm: boolean;
}

/** The lines being read and the normalised text written so far, with each line's origin. */
export class NormaliseState {
  readonly out: string[] = [];
  readonly origins: number[] = [];
  readonly blocks: NormalisedBlock[] = [];
  readonly step: number;
  readonly values: ValueWriter;

  constructor(
    readonly lines: readonly SourceLine[],
    options: NormaliseOptions,
  ) {
    this.step = options.indentSize;
    this.values = new ValueWriter(options);
  }

  /** Appends one normalised line; returns its 1-based line number. */
  emit(text: string, origin: number): number {
    this.out.push(text);
    this.origins.push(origin);
    return this.out.length;
  }
}

/** The indentation and list marker a rewritten line keeps. */
export function lead(line: SourceLine): string {
  return " ".repeat(line.indent) + (line.listItem ? "- " : "");
}

/** A data row at `owner`'s indentation (the TOON criteria dialect's unindented table rows). */
export function isFlushRow(
  candidate: SourceLine,
  owner: SourceLine,
  delimiter: ToonDelimiter,
): boolean {
  return (
    candidate.kind === "content" &&
    !candidate.tabIndented &&
    candidate.indent === owner.indent &&
    !candidate.listItem &&
    isDataRow(candidate.content, delimiter) &&
    !isHeaderLine(candidate.content)
  );
}
