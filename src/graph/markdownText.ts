/**
 * Text made safe to place in a Markdown document: a section's Markdown stays Markdown but cannot
 * become HTML, its headings moved under the document's own; plain text is escaped entirely.
 */

import MarkdownIt from "markdown-it";
import { oneLine, truncate } from "../shortText.js";

const markdown = new MarkdownIt();

/** Applies `map` to each line outside fenced code blocks (as markdown-it reads them). */
function mapOutsideFences(text: string, map: (line: string) => string): string {
  const fenced = new Set<number>();
  for (const token of markdown.parse(text, {})) {
    if (token.type !== "fence" || token.map === null) continue;
    for (let line = token.map[0]; line < token.map[1]; line += 1) fenced.add(line);
  }
  return text
    .split(/\r?\n/)
    .map((line, index) => (fenced.has(index) ? line : map(line)))
    .join("\n");
}

/** `<` that would start raw HTML, outside inline code spans, as `&lt;`. */
function neutraliseLine(line: string): string {
  const parts = line.split(/(`+)/);
  let out = "";
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] ?? "";
    if (i % 2 === 1) {
      // A backtick run opens a code span only when the same run closes it later.
      const close = parts.indexOf(part, i + 2);
      if (close > i && (close - i) % 2 === 0) {
        out += parts.slice(i, close + 1).join("");
        i = close;
        continue;
      }
      out += part;
      continue;
    }
    out += part.replace(/<(?=[A-Za-z/!?])/g, "&lt;");
  }
  return out;
}

export function withoutRawHtml(markdown: string): string {
  return mapOutsideFences(markdown, neutraliseLine);
}

/** ATX headings moved `levels` down (at most to level 6), so they sit under the document's own. */
export function demoteHeadings(markdown: string, levels: number): string {
  return mapOutsideFences(markdown, (line) => {
    const match = /^ {0,3}(#{1,6})(?=\s|$)/.exec(line);
    if (match?.[1] === undefined) return line;
    const depth = Math.min(6, match[1].length + levels);
    return `${"#".repeat(depth)}${line.slice(match[0].length)}`;
  });
}

export function sectionMarkdown(markdown: string, base: number): string {
  return demoteHeadings(withoutRawHtml(markdown.trim()), base);
}

function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~!]/g, (c) => `\\${c}`).replace(/&/g, "&amp;");
}

/** A line's start that Markdown would read as a list item, a rule or a heading underline. */
function escapeLineStart(line: string): string {
  if (/^[-+=]+$/.test(line)) return `\\${line}`;
  return line.replace(/^([-+])(?=\s)/, "\\$1").replace(/^(\d{1,9})([.)])(?=\s|$)/, "$1\\$2");
}

/** Plain text as Markdown that shows exactly that text, line breaks kept as hard breaks. */
export function markdownText(text: string): string {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => escapeLineStart(escapeInline(line.trim())))
    .join("  \n");
}

/** Text for one table cell: one line, escaped, at most `max` characters. */
export function markdownCell(text: string, max = 300): string {
  return escapeInline(truncate(oneLine(text), max));
}
