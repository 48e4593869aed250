/**
 * A stage's content as the terminal review shows it, wrapped; controls and bidi overrides shown as
 * escapes.
 */
import { type ContentField, contentForm } from "../../graph/contentFields.js";
import type { StageDefinition } from "../../graph/stages.js";
import { structuredContentOf } from "../../graph/structuredContent.js";
import { terminalSafe } from "../../untrusted/terminalText.js";

const INDENT = "  ";

/** Terminal-safe text with tabs as spaces, so that wrapping counts what is shown. */
function shown(text: string): string {
  return terminalSafe(text.replace(/\r\n/g, "\n").replace(/\t/g, "    "));
}

/** One line wrapped at spaces to `width` characters, the first after `lead`, the rest after `hang`. */
export function wrapLine(line: string, width: number, lead: string, hang: string): string[] {
  const words = line.split(/ +/).filter((w) => w !== "");
  if (words.length === 0) return [lead.trimEnd()];
  const out: string[] = [];
  let current = lead;
  let empty = true;
  for (const word of words) {
    const room = width - Array.from(current).length - (empty ? 0 : 1);
    if (!empty && Array.from(word).length > room) {
      out.push(current);
      current = hang + word;
    } else current = empty ? current + word : `${current} ${word}`;
    empty = false;
  }
  out.push(current);
  return out;
}

/** Markdown as wrapped text: list items hang under their marker; fenced code is left as it is. */
export function markdownLines(markdown: string, width: number, indent = INDENT): string[] {
  const out: string[] = [];
  let inCode = false;
  for (const line of shown(markdown.trim()).split("\n")) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inCode = !inCode;
    if (inCode || /^ {0,3}(`{3,}|~{3,})/.test(line)) {
      out.push(`${indent}${line}`);
      continue;
    }
    const item = /^(\s*(?:[-*+]|\d{1,9}[.)])\s+)(.*)$/.exec(line);
    const lead = indent + (item?.[1] ?? /^\s*/.exec(line)?.[0] ?? "");
    const hang = " ".repeat(Array.from(lead).length);
    out.push(...wrapLine((item?.[2] ?? line).trim(), width, lead, hang));
  }
  return out;
}

function fieldLines(field: ContentField, width: number, indent: string): string[] {
  if (field.text.trim() === "") return [];
  const label = `${indent}${shown(field.label)}:`;
  if (field.kind === "list") {
    const items = (field.items ?? []).flatMap((item) =>
      wrapLine(shown(item).replace(/\n/g, " "), width, `${indent}  - `, `${indent}    `),
    );
    return [label, ...items];
  }
  if (field.kind === "json") {
    return [
      label,
      ...shown(field.text)
        .split("\n")
        .map((l) => `${indent}  ${l}`),
    ];
  }
  const text = shown(field.text.trim());
  if (!text.includes("\n") && Array.from(label).length + 1 + Array.from(text).length <= width) {
    return [`${label} ${text}`];
  }
  return [label, ...markdownLines(text, width, `${indent}  `)];
}

/** The content (the stage says its shape) as lines for the terminal, indented; all of it. */
export function contentLines(
  content: unknown,
  stage: Pick<StageDefinition, "contentType" | "contentKind"> | undefined,
  width = 100,
): string[] {
  if (content === undefined || content === null || content === "") return [`${INDENT}(no content)`];
  if (typeof content === "string") return markdownLines(content, width);
  const type = stage === undefined ? undefined : structuredContentOf(stage);
  if (type === undefined) {
    return shown(JSON.stringify(content, null, 2))
      .split("\n")
      .map((l) => `${INDENT}${l}`);
  }
  const form = contentForm(type, content);
  if (form.shape === "object") {
    const lines = form.fields.flatMap((f) => fieldLines(f, width, INDENT));
    return lines.length === 0 ? [`${INDENT}(no field has content)`] : lines;
  }
  return form.items.flatMap((fields, index) => [
    `${INDENT}${type.itemName ?? "Item"} ${index + 1}`,
    ...fields.flatMap((f) => fieldLines(f, width, `${INDENT}  `)),
  ]);
}
