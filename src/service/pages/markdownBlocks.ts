/**
 * Markdown read as blocks of text — headings, paragraphs, lists, quotes, code — so a page can show
 * a section readably while every character of it stays text: nothing here produces HTML, and the
 * components that draw the blocks escape what they print. Inline Markdown is kept as written,
 * apart from **strong** and `code` spans, which are split out as segments.
 */

export type MarkdownBlock =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "quote"; text: string }
  | { kind: "code"; text: string };

/** The most blocks read from one text; the rest is one last paragraph, as it is. */
const MAX_BLOCKS = 2_000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const ITEM = /^\s{0,3}([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

interface Reader {
  lines: string[];
  at: number;
}

function codeBlock(reader: Reader, fence: string): MarkdownBlock {
  const body: string[] = [];
  reader.at += 1;
  while (reader.at < reader.lines.length) {
    const line = reader.lines[reader.at] ?? "";
    reader.at += 1;
    const closing = FENCE.exec(line)?.[1];
    if (closing !== undefined && closing[0] === fence[0] && closing.length >= fence.length) break;
    body.push(line);
  }
  return { kind: "code", text: body.join("\n") };
}

function listBlock(reader: Reader, ordered: boolean): MarkdownBlock {
  const items: string[] = [];
  while (reader.at < reader.lines.length) {
    const line = reader.lines[reader.at] ?? "";
    const item = ITEM.exec(line);
    if (item !== null && /\d/.test(item[1] ?? "") === ordered) items.push(item[2] ?? "");
    else if (line.trim() !== "" && /^\s+/.test(line) && items.length > 0) {
      items[items.length - 1] = `${items.at(-1)} ${line.trim()}`;
    } else break;
    reader.at += 1;
  }
  return { kind: "list", ordered, items };
}

function quoteBlock(reader: Reader): MarkdownBlock {
  const body: string[] = [];
  for (let q = QUOTE.exec(reader.lines[reader.at] ?? ""); q !== null; ) {
    body.push(q[1] ?? "");
    reader.at += 1;
    q = reader.at < reader.lines.length ? QUOTE.exec(reader.lines[reader.at] ?? "") : null;
  }
  return { kind: "quote", text: body.join("\n") };
}

function paragraph(reader: Reader): MarkdownBlock {
  const body: string[] = [];
  while (reader.at < reader.lines.length) {
    const line = reader.lines[reader.at] ?? "";
    if (line.trim() === "" || FENCE.test(line) || HEADING.test(line) || QUOTE.test(line)) break;
    if (body.length > 0 && ITEM.test(line)) break;
    body.push(line.trim());
    reader.at += 1;
  }
  return { kind: "paragraph", text: body.join("\n") };
}

/** A heading's text without its closing `#`s (trimmed by hand: no regex backtracks on it). */
function headingText(raw: string | undefined): string {
  const text = (raw ?? "").trimEnd();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end -= 1;
  if (end === text.length) return text;
  return end === 0 || /\s/.test(text[end - 1] ?? "") ? text.slice(0, end).trimEnd() : text;
}

/** The blocks of a Markdown text (see the module's description). */
export function markdownBlocks(markdown: string): MarkdownBlock[] {
  const reader: Reader = { lines: markdown.split(/\r?\n/), at: 0 };
  const blocks: MarkdownBlock[] = [];
  while (reader.at < reader.lines.length) {
    if (blocks.length >= MAX_BLOCKS) {
      blocks.push({ kind: "paragraph", text: reader.lines.slice(reader.at).join("\n") });
      break;
    }
    const line = reader.lines[reader.at] ?? "";
    const fence = FENCE.exec(line)?.[1];
    const heading = HEADING.exec(line);
    const item = ITEM.exec(line);
    if (line.trim() === "") reader.at += 1;
    else if (fence !== undefined) blocks.push(codeBlock(reader, fence));
    else if (heading !== null) {
      blocks.push({
        kind: "heading",
        level: heading[1]?.length ?? 1,
        text: headingText(heading[2]),
      });
      reader.at += 1;
    } else if (item !== null) blocks.push(listBlock(reader, /\d/.test(item[1] ?? "")));
    else if (QUOTE.test(line)) blocks.push(quoteBlock(reader));
    else blocks.push(paragraph(reader));
  }
  return blocks;
}

export type InlineSegment = { kind: "text" | "strong" | "code"; text: string };

/** A line's **strong** and `code` spans split out; everything else is text as written. */
export function inlineSegments(text: string): InlineSegment[] {
  const segments: InlineSegment[] = [];
  const pattern = /\*\*([^*\n]+?)\*\*|`([^`\n]+)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (at > last) segments.push({ kind: "text", text: text.slice(last, at) });
    if (match[1] !== undefined) segments.push({ kind: "strong", text: match[1] });
    else segments.push({ kind: "code", text: match[2] ?? "" });
    last = at + match[0].length;
  }
  if (last < text.length) segments.push({ kind: "text", text: text.slice(last) });
  return segments;
}
