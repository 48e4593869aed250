/**
 * The edit form of structured content: Markdown with a `## heading` per field (`# Pair <n>` before
 * a list item), read back by the edit rule (structuredContent.ts).
 */
import {
  type ContentField,
  type ContentIssue,
  contentForm,
  contentFromForm,
  describeIssue,
  type FieldEntry,
  type FormInput,
  isFieldKey,
} from "../../graph/contentFields.js";
import { readStructuredEdit } from "../../graph/reviewInput.js";
import { fieldLabel, type StructuredContentType } from "../../graph/structuredContent.js";

/** A value line that the form would otherwise read as markup gets a leading backslash. */
function escapedLine(line: string): string {
  return /^(#|\\|<!--)/.test(line) ? `\\${line}` : line;
}

function fence(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return "`".repeat(Math.max(3, longest + 1));
}

function fieldBlock(type: StructuredContentType, field: ContentField): string[] {
  const known = type.fields.some((f) => f.key === field.key);
  const heading = `## ${known ? field.label : field.key}`;
  if (field.kind === "list") {
    return [heading, ...(field.items ?? []).map((item) => `- ${item.replace(/\r?\n/g, " ")}`), ""];
  }
  if (field.kind === "json") {
    const mark = fence(field.text);
    return [heading, `${mark}json`, field.text, mark, ""];
  }
  if (field.text === "") return [heading, ""];
  return [heading, ...field.text.split(/\r?\n/).map(escapedLine), ""];
}

function instructions(type: StructuredContentType): string[] {
  const item = type.itemName ?? "Item";
  return [
    `<!-- Edit ${type.name}: each field starts with a "## <field>" line; a list takes one item a`,
    `     line ("- item"). A field left empty is removed${requiredNote(type)}; a field whose heading is deleted keeps its text.${
      type.shape === "list"
        ? ` Each ${item.toLowerCase()} starts with a "# ${item} <n>" line: copy one to add, delete one to remove it.`
        : ""
    }`,
    "     Save and close the file to send the edit. Lines between these marks are ignored. -->",
    "",
  ];
}

/** " (funder and priorities cannot be)": the required fields, when the type has any. */
function requiredNote(type: StructuredContentType): string {
  const required = type.fields.filter((f) => f.required === true).map((f) => fieldLabel(f.key));
  if (required.length === 0) return "";
  const names =
    required.length === 1
      ? required[0]
      : `${required.slice(0, -1).join(", ")} and ${required.at(-1)}`;
  return ` (${names} cannot be)`;
}

/** The content as the edit form (see the module's description). */
export function writeFieldForm(type: StructuredContentType, value: unknown): string {
  const form = contentForm(type, value);
  const out = instructions(type);
  if (form.shape === "object") {
    for (const field of form.fields) out.push(...fieldBlock(type, field));
  } else {
    // An empty list still gets one blank item to fill in.
    const items = form.items.length > 0 ? form.items : contentFormItems(type);
    items.forEach((fields, index) => {
      out.push(`# ${type.itemName ?? "Item"} ${index + 1}`, "");
      for (const field of fields) out.push(...fieldBlock(type, field));
    });
  }
  return `${out.join("\n").trimEnd()}\n`;
}

function contentFormItems(type: StructuredContentType): ContentField[][] {
  const blank = contentForm(type, [{}]);
  return blank.shape === "list" ? blank.items : [];
}

export type FormProblem = { line: number; message: string };

interface FieldDraft {
  key: string;
  heading: string;
  line: number;
  lines: string[];
}

/** The key a heading names: a known field's label or key (any case and spacing), else itself. */
function keyOfHeading(type: StructuredContentType, heading: string): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, "");
  const wanted = squash(heading);
  const known = type.fields.find(
    (f) => squash(f.key) === wanted || squash(fieldLabel(f.key)) === wanted,
  );
  if (known !== undefined) return known.key;
  return isFieldKey(heading) ? heading : undefined;
}

/** The lines outside `<!-- … -->` notes, with their line numbers. */
function withoutNotes(text: string): Array<{ text: string; line: number }> {
  const kept: Array<{ text: string; line: number }> = [];
  let inNote = false;
  text.split(/\r?\n/).forEach((line, index) => {
    if (!inNote && line.trimStart().startsWith("<!--")) inNote = true;
    if (inNote) {
      if (line.includes("-->")) inNote = false;
      return;
    }
    kept.push({ text: line, line: index + 1 });
  });
  return kept;
}

function entryOf(type: StructuredContentType, draft: FieldDraft): FieldEntry {
  const body = draft.lines.join("\n").trim();
  const known = type.fields.find((f) => f.key === draft.key);
  const fenced = /^(`{3,})json[ \t]*\n([\s\S]*)\n\1[ \t]*$/.exec(body);
  if (known === undefined && fenced !== null)
    return { key: draft.key, kind: "json", text: fenced[2] ?? "" };
  const lines = body.split("\n").filter((l) => l.trim() !== "");
  const listed = lines.length > 0 && lines.every((l) => /^\s*[-*]\s/.test(l));
  const kind = known?.kind ?? (listed ? "list" : "text");
  const text = body
    .split("\n")
    .map((line) => (line.startsWith("\\") ? line.slice(1) : line))
    .join("\n");
  return { key: draft.key, kind, text };
}

const BEFORE_FIRST = "text before the first field heading";

/** The form's fields and items, or the lines that cannot be read. */
function readForm(type: StructuredContentType, text: string) {
  const problems: FormProblem[] = [];
  const items: FieldDraft[][] = type.shape === "object" ? [[]] : [];
  let current: FieldDraft | undefined;
  for (const { text: line, line: number } of withoutNotes(text)) {
    const item = /^#\s+(.*)$/.exec(line);
    const field = /^##\s+(.*)$/.exec(line);
    if (item !== null && type.shape === "list") {
      items.push([]);
      current = undefined;
    } else if (field !== null) {
      const heading = (field[1] ?? "").trim();
      const key = keyOfHeading(type, heading);
      const into = items.at(-1);
      // A refused heading's lines are read into a field that is dropped: one problem, not many.
      current = { key: key ?? "", heading, line: number, lines: [] };
      if (key === undefined) {
        problems.push({ line: number, message: `"${heading}" is not a field of ${type.name}` });
      } else if (into === undefined) {
        const item = type.itemName ?? "Item";
        problems.push({ line: number, message: `a field before the first "# ${item}" line` });
      } else into.push(current);
    } else if (current !== undefined) current.lines.push(line);
    else if (line.trim() !== "" && !problems.some((p) => p.message === BEFORE_FIRST)) {
      problems.push({ line: number, message: BEFORE_FIRST });
    }
  }
  return { items, problems };
}

/** An emptied field becomes null (the decision removes it); or what is wrong, a line each. */
export function readFieldForm(
  type: StructuredContentType,
  text: string,
  current?: unknown,
): { ok: true; json: string } | { ok: false; problems: string[] } {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    // JSON in place of the form: the review boundary's parser and the edit rule; sent as given.
    const stage = {
      title: type.name.replace(/^the /, ""),
      contentType: "",
      contentKind: type.shape,
    };
    const read = readStructuredEdit(stage, type, trimmed, current);
    return read.ok ? { ok: true, json: trimmed } : { ok: false, problems: [read.issue] };
  }
  const { items, problems } = readForm(type, text);
  if (problems.length > 0)
    return { ok: false, problems: problems.map((p) => `line ${p.line}: ${p.message}`) };
  const entries = items.map((drafts) => drafts.map((d) => entryOf(type, d)));
  const input: FormInput =
    type.shape === "object"
      ? { shape: "object", fields: entries[0] ?? [] }
      : { shape: "list", items: entries };
  const read = contentFromForm(type, input, current);
  if (read.ok) return { ok: true, json: JSON.stringify(read.edit, null, 2) };
  return {
    ok: false,
    problems: read.issues.map((issue: ContentIssue) => describeIssue(type, issue)),
  };
}
