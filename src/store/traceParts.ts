/**
 * Where a prompt splits into the parts the trace store keeps once per database: the fenced data
 * blocks (the content, a field, the source documents — the delimiter lines apart from the data,
 * since the same data is fenced under other names and ids), each passage of the source documents
 * apart from its numbered label (the same passage is given to several criteria under other
 * numbers), and the paragraphs of the instructions around them. Joining the parts gives the text
 * back exactly, whatever it holds: the split only decides what can be shared.
 */

/** The label the judge's prompts give the source documents' data block. */
const SOURCE_DOCUMENTS = "SOURCE DOCUMENTS";

/** A data block's delimiter lines: `<<<LABEL id=0123456789ab>>>` and `<<<END LABEL id=…>>>`. */
const CLOSE_LINE = /^<<<END ([A-Z][A-Z0-9 _-]{0,80}) id=([0-9a-f]{12})>>>$/;
const OPEN_LINE = /^<<<([A-Z][A-Z0-9 _-]{0,80}) id=([0-9a-f]{12})>>>$/;
/** No delimiter line is longer (the patterns' bounds): longer lines are not looked at. */
const MAX_DELIMITER_CHARS = 110;

/** A paragraph break: two or more line breaks. */
const PARAGRAPH_BREAK = /\n{2,}/g;

/** A source passage's label as the context block writes it: `[2] (rfp.md, Page 1) `. */
const PASSAGE_LABEL = /^\[\d{1,6}\] \([^\n]{0,300}?\) /;

/** Adds the text's paragraphs to `parts`, its paragraph breaks as parts of their own. */
function addParagraphs(parts: string[], text: string): void {
  let at = 0;
  for (const match of text.matchAll(PARAGRAPH_BREAK)) {
    const index = match.index ?? 0;
    parts.push(text.slice(at, index), match[0]);
    at = index + match[0].length;
  }
  parts.push(text.slice(at));
}

/** Adds the source documents' passages to `parts`, each label apart from the passage's text. */
function addPassages(parts: string[], data: string): void {
  const paragraphs: string[] = [];
  addParagraphs(paragraphs, data);
  for (const paragraph of paragraphs) {
    const label = PASSAGE_LABEL.exec(paragraph)?.[0];
    if (label === undefined) parts.push(paragraph);
    else parts.push(label, paragraph.slice(label.length));
  }
}

interface DelimiterLine {
  kind: "open" | "close";
  /** LABEL and id, as the opening and closing lines of one block both name them. */
  key: string;
  label: string;
  start: number;
  end: number;
}

/** Where the next line starting with `<<<` starts, at or after `from`; -1 when none does. */
function nextCandidate(text: string, from: number): number {
  if (from === 0 && text.startsWith("<<<")) return 0;
  const newline = text.indexOf("\n<<<", Math.max(0, from - 1));
  return newline === -1 ? -1 : newline + 1;
}

/** Every line that could delimit a data block, in order (one pass over the text). */
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
  /** Where the opening line starts and where the closing line ends. */
  start: number;
  end: number;
  /** Where the data between the lines starts and ends (without the line breaks around it). */
  dataStart: number;
  dataEnd: number;
  label: string;
}

/**
 * The data blocks of the text, in order, none inside another: an opening line and the first
 * closing line after it naming the same label and id. Linear in the text: the closing lines of
 * each label and id are visited once.
 */
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

/**
 * The text's parts, in order: joined, they are the text. Empty parts are left out (an empty text
 * has none).
 */
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
