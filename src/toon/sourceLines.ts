import { trimSpaces } from "./tokens.js";

/** One line of TOON text, classified the way the spec decoder's scanner sees it. */
export interface SourceLine {
  /** 1-based line number in the text it came from. */
  readonly number: number;
  /** The line as written (a trailing `\r` included). */
  readonly raw: string;
  /** blank, a whole-line `#` comment, or content. */
  readonly kind: "blank" | "comment" | "content";
  /** Leading spaces. */
  readonly indent: number;
  /** A tab in the leading whitespace: such lines are left to the decoder as they are. */
  readonly tabIndented: boolean;
  /** The text after the indentation, trailing spaces removed. */
  readonly content: string;
  /** True when the content starts a list item (`- ` or a lone `-`). */
  readonly listItem: boolean;
  /** The content without a list item's `- ` marker. */
  readonly body: string;
}

/** Splits text on `\n` (as the spec decoder does) and classifies every line. */
export function readSourceLines(text: string): SourceLine[] {
  return text.split("\n").map((raw, index) => classifyLine(raw, index + 1));
}

/** Classifies one line; `number` is its 1-based position. */
function classifyLine(raw: string, number: number): SourceLine {
  let line = number === 1 && raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  if (line.endsWith("\r")) line = line.slice(0, -1);
  const leading = /^[ \t]*/.exec(line)?.[0] ?? "";
  const tabIndented = leading.includes("\t");
  const indent = tabIndented ? leading.indexOf("\t") : leading.length;
  const content = trimSpaces(line.slice(indent));
  const kind =
    content === "" ? "blank" : !tabIndented && content.startsWith("#") ? "comment" : "content";
  const listItem = content === "-" || content.startsWith("- ");
  const body = listItem ? content.slice(1).replace(/^ +/, "") : content;
  return { number, raw, kind, indent, tabIndented, content, listItem, body };
}
