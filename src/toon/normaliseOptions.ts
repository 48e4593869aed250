export interface NormaliseOptions {
  /** Spaces per indentation level (the decoder's `indentSize`). */
  readonly indentSize: number;
  /** Keys and columns whose unquoted values stay strings (`1.0` stays "1.0"). */
  readonly stringFields: ReadonlySet<string>;
  /** File name for error messages. */
  readonly source?: string | undefined;
}
