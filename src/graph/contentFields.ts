/**
 * A structured content as labelled fields a person reads and edits (the terminal's form, the review
 * page, the proposal's appendix); the way back is the edit rule (applyContentEdit).
 */
import { describeJsonProblem, isRecord, readUntrustedJson } from "../untrusted/json.js";
import { REVIEW_LIMITS } from "./reviewInput.js";
import {
  applyContentEdit,
  type ContentIssue,
  fieldLabel,
  type StructuredContentType,
} from "./structuredContent.js";

export type { ContentIssue } from "./structuredContent.js";

export type FieldKind = "text" | "list" | "json";

/** One field as it is shown and edited: `text` is its editable text (a list: one item a line). */
export interface ContentField {
  key: string;
  label: string;
  kind: FieldKind;
  text: string;
  items?: string[];
}

export type ContentForm =
  | { shape: "object"; fields: ContentField[] }
  | { shape: "list"; items: ContentField[][] };

export interface FieldEntry {
  key: string;
  kind: FieldKind;
  text: string;
}

export type FormInput =
  | { shape: "object"; fields: FieldEntry[] }
  | { shape: "list"; items: FieldEntry[][] };

export const FIELD_FORM_LIMITS = { fields: 100, items: 500, keyChars: 64 } as const;

/** A field key a form may carry: a letter, then letters, digits or `_`; no prototype keys. */
const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export function isFieldKey(key: string): boolean {
  return (
    key.length <= FIELD_FORM_LIMITS.keyChars && FIELD_KEY.test(key) && !PROTOTYPE_KEYS.has(key)
  );
}

function fieldOf(key: string, value: unknown, hint: "text" | "list" | undefined): ContentField {
  const label = fieldLabel(key);
  if (value === undefined || value === null) {
    const kind = hint ?? "text";
    return { key, label, kind, text: "", ...(kind === "list" ? { items: [] } : {}) };
  }
  if (typeof value === "string" && hint !== "list")
    return { key, label, kind: "text", text: value };
  const items = typeof value === "string" ? [value] : value;
  if (Array.isArray(items) && items.every((i) => typeof i === "string") && hint !== "text") {
    return { key, label, kind: "list", text: items.join("\n"), items };
  }
  if (typeof value === "number" || typeof value === "boolean") {
    return { key, label, kind: "text", text: String(value) };
  }
  return { key, label, kind: "json", text: JSON.stringify(value, null, 2) };
}

function fieldsOf(type: StructuredContentType, value: Record<string, unknown>): ContentField[] {
  const known = new Set(type.fields.map((f) => f.key));
  return [
    ...type.fields.map((f) => fieldOf(f.key, value[f.key], f.kind)),
    ...Object.entries(value)
      .filter(([key]) => !known.has(key))
      .map(([key, v]) => fieldOf(key, v, undefined)),
  ];
}

/** The content as fields; a value of the wrong shape (or none) gives the empty form. */
export function contentForm(type: StructuredContentType, value: unknown): ContentForm {
  if (type.shape === "object") {
    return { shape: "object", fields: fieldsOf(type, isRecord(value) ? value : {}) };
  }
  const items = Array.isArray(value) ? value : [];
  return {
    shape: "list",
    items: items.map((item) => fieldsOf(type, isRecord(item) ? item : { value: item })),
  };
}

/** A list field's items: one a line, a leading `- ` or `* ` taken off, empty lines left out. */
export function listItems(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*[-*]\s+/, "").trim())
    .filter((line) => line !== "");
}

type Built = { value: unknown } | { issue: string };

function entryValue(entry: FieldEntry): Built {
  if (entry.text.trim() === "") return { value: null };
  if (entry.kind === "text") return { value: entry.text.trim() };
  if (entry.kind === "list") return { value: listItems(entry.text) };
  const read = readUntrustedJson(entry.text, { maxDepth: REVIEW_LIMITS.editJsonDepth });
  if (!read.ok) return { issue: `is not usable JSON (${describeJsonProblem(read.problem)})` };
  return { value: read.value };
}

function objectOfEntries(entries: readonly FieldEntry[], at: Array<string | number>) {
  const issues: ContentIssue[] = [];
  const value: Record<string, unknown> = {};
  if (entries.length > FIELD_FORM_LIMITS.fields) {
    issues.push({ path: at, message: `has more than ${FIELD_FORM_LIMITS.fields} fields` });
    return { value, issues };
  }
  for (const entry of entries) {
    if (!isFieldKey(entry.key)) {
      issues.push({
        path: [...at, entry.key],
        message: "is not a field name: a letter, then letters, digits or _ (at most 64)",
      });
      continue;
    }
    if (Object.hasOwn(value, entry.key)) {
      issues.push({ path: [...at, entry.key], message: "is given twice" });
      continue;
    }
    const built = entryValue(entry);
    if ("issue" in built) issues.push({ path: [...at, entry.key], message: built.issue });
    else value[entry.key] = built.value;
  }
  return { value, issues };
}

/** The edited fields as an edit of `current` (an emptied field as null) and the content it makes. */
export function contentFromForm(
  type: StructuredContentType,
  input: FormInput,
  current?: unknown,
): { ok: true; value: unknown; edit: unknown } | { ok: false; issues: ContentIssue[] } {
  if (input.shape !== type.shape) {
    return {
      ok: false,
      issues: [
        {
          path: [],
          message: `${type.name} takes ${type.shape === "object" ? "one set of fields" : "a list of items"}`,
        },
      ],
    };
  }
  let edit: unknown;
  const issues: ContentIssue[] = [];
  /** Each kept item's place in the form, so an issue names the item as the person sees it. */
  let posted: number[] = [];
  if (input.shape === "object") {
    const built = objectOfEntries(input.fields, []);
    edit = built.value;
    issues.push(...built.issues);
  } else if (input.items.length > FIELD_FORM_LIMITS.items) {
    issues.push({ path: [], message: `has more than ${FIELD_FORM_LIMITS.items} items` });
  } else {
    // An item left empty (a blank one offered for adding, or one emptied to remove it) is dropped.
    posted = input.items.flatMap((fields, at) =>
      fields.some((f) => f.text.trim() !== "") ? [at] : [],
    );
    edit = posted.map((at) => {
      const built = objectOfEntries(input.items[at] ?? [], [at]);
      issues.push(...built.issues);
      return built.value;
    });
  }
  if (issues.length > 0) return { ok: false, issues };
  const applied = applyContentEdit(type, current, edit);
  if (!applied.ok) {
    // The edit rule numbers the kept items: name each as it stands in the form.
    const inForm = (issue: ContentIssue): ContentIssue => {
      const [first, ...rest] = issue.path;
      return typeof first === "number"
        ? { ...issue, path: [posted[first] ?? first, ...rest] }
        : issue;
    };
    return { ok: false, issues: applied.issues.map(inForm) };
  }
  // A list's edit replaces the list: it is sent as the content it makes.
  return { ok: true, value: applied.value, edit: type.shape === "list" ? applied.value : edit };
}

/** An issue as one line: `Funder need (pair 2): is required`, `Priorities: …`, or the message. */
export function describeIssue(type: StructuredContentType, issue: ContentIssue): string {
  const [first, second] = issue.path;
  const item =
    typeof first === "number"
      ? `${(type.itemName ?? "item").toLowerCase()} ${first + 1}`
      : undefined;
  const key = typeof first === "string" ? first : typeof second === "string" ? second : undefined;
  if (key === undefined) return item === undefined ? issue.message : `${item}: ${issue.message}`;
  const where = item === undefined ? fieldLabel(key) : `${fieldLabel(key)} (${item})`;
  return `${where}: ${issue.message}`;
}
