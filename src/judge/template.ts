import { PromptTemplateError } from "./errors.js";

/** `{{name}}`, spaces inside the braces allowed. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export interface TemplatePlaceholder {
  name: string;
  /** 1-based line and column of the opening braces. */
  line: number;
  column: number;
}

/** The placeholders a template uses, in order, with where each is. */
export function placeholdersOf(template: string): TemplatePlaceholder[] {
  const found: TemplatePlaceholder[] = [];
  // Lines are counted once, forward from the previous placeholder.
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
 * Fills `{{name}}` placeholders in one pass, so text inserted for one placeholder is never read as
 * a placeholder itself. A line that holds only a placeholder whose value is empty is dropped, and
 * runs of blank lines in the template are reduced to one. An unknown placeholder throws a
 * {@link PromptTemplateError} with its line and column in the template named `source`. A value of
 * several lines is put on lines of its own, so a fenced block's delimiters always start a line.
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
    // A multi-line value (a fenced block) starts and ends on a line of its own.
    const lineStart = kept.lastIndexOf("\n", offset - 1) + 1;
    const lineEnd = kept.indexOf("\n", offset + match.length);
    const before = kept.slice(lineStart, offset).trim() === "" ? "" : "\n";
    const rest = kept.slice(offset + match.length, lineEnd === -1 ? undefined : lineEnd);
    const after = rest.trim() === "" ? "" : "\n";
    return `${before}${value}${after}`;
  });
}
