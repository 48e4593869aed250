import type { Chunk, SourceDocument } from "./types.js";

export interface ChunkOptions {
  /** Target words per chunk (default 180). */
  chunkWords?: number;
  /** Words repeated from the end of one chunk at the start of the next in a section (default 30). */
  overlapWords?: number;
}

interface Paragraph {
  section: string | undefined;
  words: string[];
}

const MARKDOWN_HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/u;
const PAGE_MARKER = /^\s*[-=_]*\s*page\s+(\d+)(?:\s+of\s+\d+)?\s*[-=_]*\s*$/iu;

function splitWords(text: string): string[] {
  return text.split(/\s+/u).filter((word) => word !== "");
}

function sectionOpenedBy(line: string): string | undefined {
  const page = PAGE_MARKER.exec(line);
  if (page) return `Page ${page[1]}`;
  const heading = MARKDOWN_HEADING.exec(line);
  if (heading) {
    const title = heading[1]!.trim();
    const pageHeading = PAGE_MARKER.exec(title);
    return pageHeading ? `Page ${pageHeading[1]}` : title;
  }
  return undefined;
}

/** Form feeds start a page ("Page N"); headings and "Page N" lines start a section, not text. */
function paragraphsOf(text: string): Paragraph[] {
  const pages = text.split("\f");
  const hasPages = pages.length > 1;
  const paragraphs: Paragraph[] = [];
  let section: string | undefined;
  let lines: string[] = [];

  const flush = () => {
    const words = splitWords(lines.join(" "));
    if (words.length > 0) paragraphs.push({ section, words });
    lines = [];
  };

  pages.forEach((page, index) => {
    if (hasPages) {
      flush();
      section = `Page ${index + 1}`;
    }
    for (const line of page.split(/\r?\n/u)) {
      const opened = sectionOpenedBy(line);
      if (opened !== undefined) {
        flush();
        section = opened;
      } else if (line.trim() === "") {
        flush();
      } else {
        lines.push(line.trim());
      }
    }
  });
  flush();
  return paragraphs;
}

function groupBySection(paragraphs: readonly Paragraph[]): Paragraph[][] {
  const groups: Paragraph[][] = [];
  for (const paragraph of paragraphs) {
    const last = groups.at(-1);
    if (last !== undefined && last[0]!.section === paragraph.section) last.push(paragraph);
    else groups.push([paragraph]);
  }
  return groups;
}

/** Paragraphs packed whole while they fit; a longer one is cut; each window overlaps the last. */
function windowsOf(paragraphs: readonly Paragraph[], size: number, overlap: number): string[][] {
  const windows: string[][] = [];
  let current: string[] = [];
  let fresh = 0; // words in `current` that are not carried-over overlap

  const emit = () => {
    if (fresh === 0) return;
    windows.push(current);
    current = overlap > 0 ? current.slice(-overlap) : [];
    fresh = 0;
  };

  for (const { words } of paragraphs) {
    if (fresh > 0 && current.length + words.length > size) emit();
    if (words.length + current.length <= size) {
      current = current.concat(words);
      fresh += words.length;
      continue;
    }
    // Too long to add whole: fill the current window and cut the rest into windows (read from an
    // offset, so a paragraph of millions of words is cut in one pass).
    let from = 0;
    while (from < words.length) {
      const room = Math.max(size - current.length, size - overlap, 1);
      const taken = words.slice(from, from + room);
      current = current.concat(taken);
      fresh += taken.length;
      from += taken.length;
      if (from < words.length) emit();
    }
  }
  emit();
  return windows;
}

/**
 * Splits documents into chunks of about `chunkWords` words on paragraph boundaries, each with
 * its document's name and section (nearest markdown heading, or "Page N").
 */
export function chunkDocuments(
  docs: readonly SourceDocument[],
  options: ChunkOptions = {},
): Chunk[] {
  const size = Math.max(1, Math.floor(options.chunkWords ?? 180));
  const overlap = Math.min(
    Math.max(0, Math.floor(options.overlapWords ?? 30)),
    Math.floor(size / 2),
  );
  const chunks: Chunk[] = [];
  const seen = new Map<string, number>();
  for (const doc of docs) {
    // Two documents with the same name still get distinct chunk ids.
    const occurrence = seen.get(doc.name) ?? 0;
    seen.set(doc.name, occurrence + 1);
    const prefix = occurrence === 0 ? doc.name : `${doc.name}~${occurrence + 1}`;
    let n = 0;
    for (const group of groupBySection(paragraphsOf(doc.text))) {
      const section = group[0]!.section;
      for (const words of windowsOf(group, size, overlap)) {
        n += 1;
        chunks.push({
          id: `${prefix}#${n}`,
          source: doc.name,
          ...(section === undefined ? {} : { section }),
          text: words.join(" "),
          wordCount: words.length,
        });
      }
    }
  }
  return chunks;
}
