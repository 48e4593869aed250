import { PromptTemplateError } from "./errors.js";

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export interface TemplatePlaceholder {
  name: string;
  line: number;
  column: number;
}

export function placeholdersOf(template: string): TemplatePlaceholder[] {
  const found: TemplatePlaceholder[] = [];
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const index = match.index;
    for (; counted < index; counted++) {
      if (template.charCodeAt(counted) === 10) {
        line++;
        lineStart = counted + 1;
      }
    }
    found.push({ name: match[1] ?? "", line, column: index - lineStart + 1 });
  }
  return found;
}

/**
 * Fills `{{name}}` placeholders in one pass, so inserted text is never read as a placeholder. A
 * line holding only an empty placeholder is dropped; a multi-line value gets lines of its own, so
 * a fenced block's delimiters always start a line.
 */
export function fillTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
  source: string,
  criterionId?: string,
): string {
  const known = Object.keys(values);
  for (const placeholder of placeholdersOf(template)) {
    if (!Object.hasOwn(values, placeholder.name)) {
      throw new PromptTemplateError(placeholder.name, known, {
        criterionId,
        source,
        line: placeholder.line,
        column: placeholder.column,
      });
    }
  }
  const kept = template
    .split("\n")
    .filter((line) => {
      const only = /^\s*\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/.exec(line);
      return only === null || (values[only[1] ?? ""] ?? "") !== "";
    })
    .join("\n")
    .replace(/\n[ \t]*\n(?:[ \t]*\n)+/g, "\n\n")
    .trim();
  return kept.replace(PLACEHOLDER, (match: string, name: string, offset: number) => {
    const value = values[name] ?? "";
    if (!value.includes("\n")) return value;
    const lineStart = kept.lastIndexOf("\n", offset - 1) + 1;
    const lineEnd = kept.indexOf("\n", offset + match.length);
    const before = kept.slice(lineStart, offset).trim() === "" ? "" : "\n";
    const rest = kept.slice(offset + match.length, lineEnd === -1 ? undefined : lineEnd);
    const after = rest.trim() === "" ? "" : "\n";
    return `${before}${value}${after}`;
  });
}
