/**
 * Where a prompt splits into the parts kept once per database: fenced data apart from its
 * delimiter lines (the same data is fenced under other ids), each source passage apart from its
 * numbered label, and the paragraphs around them. Joined, the parts are the text exactly.
 */

const SOURCE_DOCUMENTS = "SOURCE DOCUMENTS";

/** A data block's delimiter lines: `<<<LABEL id=0123456789ab>>>` and `<<<END LABEL id=…>>>`. */
const CLOSE_LINE = /^<<<END ([A-Z][A-Z0-9 _-]{0,80}) id=([0-9a-f]{12})>>>$/;
const OPEN_LINE = /^<<<([A-Z][A-Z0-9 _-]{0,80}) id=([0-9a-f]{12})>>>$/;
/** The patterns' bound: longer lines are not looked at. */
const MAX_DELIMITER_CHARS = 110;

/** Split at paragraph breaks, the breaks kept as parts of their own. */
const PARAGRAPHS = /(\n{2,})/;

/** A source passage's label as the context block writes it: `[2] (rfp.md, Page 1) `. */
const PASSAGE_LABEL = /^\[\d{1,6}\] \([^\n]{0,300}?\) /;

function addParagraphs(parts: string[], text: string): void {
  for (const part of text.split(PARAGRAPHS)) parts.push(part);
}

function addPassages(parts: string[], data: string): void {
  for (const paragraph of data.split(PARAGRAPHS)) {
    const label = PASSAGE_LABEL.exec(paragraph)?.[0];
    if (label === undefined) parts.push(paragraph);
    else parts.push(label, paragraph.slice(label.length));
  }
}

interface DelimiterLine {
  kind: "open" | "close";
  key: string;
  label: string;
  start: number;
  end: number;
}

function nextCandidate(text: string, from: number): number {
  if (from === 0 && text.startsWith("<<<")) return 0;
  const newline = text.indexOf("\n<<<", Math.max(0, from - 1));
  return newline === -1 ? -1 : newline + 1;
}

function delimiterLines(text: string): DelimiterLine[] {
  const lines: DelimiterLine[] = [];
  for (let start = nextCandidate(text, 0); start !== -1; ) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = end - start <= MAX_DELIMITER_CHARS ? text.slice(start, end) : "";
    const close = CLOSE_LINE.exec(line);
    const match = close ?? OPEN_LINE.exec(line);
    if (match !== null) {
      const [label, id] = [match[1] ?? "", match[2] ?? ""];
      const kind = close === null ? "open" : "close";
      lines.push({ kind, key: `${label} ${id}`, label, start, end });
    }
    start = newline === -1 ? -1 : nextCandidate(text, newline + 1);
  }
  return lines;
}

interface DataBlock {
  start: number;
  end: number;
  dataStart: number;
  dataEnd: number;
  label: string;
}

/** The data blocks, in order, none inside another; each closing line is visited once. */
function dataBlocks(text: string): DataBlock[] {
  const lines = delimiterLines(text);
  const closes = new Map<string, DelimiterLine[]>();
  for (const line of lines) {
    if (line.kind !== "close") continue;
    const same = closes.get(line.key);
    if (same === undefined) closes.set(line.key, [line]);
    else same.push(line);
  }
  const next = new Map<string, number>();
  const blocks: DataBlock[] = [];
  let from = 0;
  for (const open of lines) {
    if (open.kind !== "open" || open.start < from || open.end === text.length) continue;
    const candidates = closes.get(open.key) ?? [];
    let index = next.get(open.key) ?? 0;
    // A closing line right after the opening one leaves no line for the data: not a block.
    while (index < candidates.length && (candidates[index]?.start ?? 0) <= open.end + 1) index++;
    next.set(open.key, index);
    const close = candidates[index];
    if (close === undefined) continue;
    blocks.push({
      start: open.start,
      end: close.end,
      dataStart: open.end + 1,
      dataEnd: close.start - 1,
      label: open.label,
    });
    from = close.end;
  }
  return blocks;
}

/** The text's non-empty parts, in order: joined, they are the text. */
export function promptParts(text: string): string[] {
  const parts: string[] = [];
  let at = 0;
  for (const block of dataBlocks(text)) {
    addParagraphs(parts, text.slice(at, block.start));
    parts.push(text.slice(block.start, block.dataStart));
    const data = text.slice(block.dataStart, block.dataEnd);
    if (block.label === SOURCE_DOCUMENTS) addPassages(parts, data);
    else parts.push(data);
    parts.push(text.slice(block.dataEnd, block.end));
    at = block.end;
  }
  addParagraphs(parts, text.slice(at));
  return parts.filter((part) => part !== "");
}
