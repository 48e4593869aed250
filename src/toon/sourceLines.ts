import { trimSpaces } from "./tokens.js";

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
  return text.split("\n").map((raw, index) => classifyLine(raw, index + 1));
}

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
