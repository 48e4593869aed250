/**
 * The edit form's content fields: one text area, or for structured content one per field (a list:
 * a group per item, two blank ones to add items); a refused edit comes back with its problems.
 */
import {
  type ContentField,
  type ContentIssue,
  contentForm,
  describeIssue,
  type FieldEntry,
  type FormInput,
} from "../../graph/contentFields.js";
import { fieldLabel, type StructuredContentType } from "../../graph/structuredContent.js";
import { CONTENT_FORM_FIELD, type EditDraft, shownContent } from "./structuredEdit.js";

const BLANK_ITEMS = 2;

function entriesOf(fields: readonly ContentField[]): FieldEntry[] {
  return fields.map(({ key, kind, text }) => ({ key, kind, text }));
}

/** Entered fields laid out as the form shows them: every known field in order, then the rest. */
function withKnownFields(
  type: StructuredContentType,
  entries: readonly FieldEntry[],
): FieldEntry[] {
  const known = new Set(type.fields.map((f) => f.key));
  return [
    ...type.fields.map(
      (f) => entries.find((e) => e.key === f.key) ?? { key: f.key, kind: f.kind, text: "" },
    ),
    ...entries.filter((e) => !known.has(e.key)),
  ];
}

function formValues(type: StructuredContentType, content: string, draft?: EditDraft): FormInput {
  const entered = draft?.input;
  if (entered?.shape === "object") {
    return { shape: "object", fields: withKnownFields(type, entered.fields) };
  }
  if (entered?.shape === "list") {
    // The blank new items posted come back as the new items offered, not numbered as the content's.
    const last = entered.items.findLastIndex((item) => item.some((f) => f.text.trim() !== ""));
    const items = entered.items.slice(0, last + 1);
    return { shape: "list", items: items.map((item) => withKnownFields(type, item)) };
  }
  const form = contentForm(type, shownContent({ content }));
  return form.shape === "object"
    ? { shape: "object", fields: entriesOf(form.fields) }
    : { shape: "list", items: form.items.map(entriesOf) };
}

function samePath(issue: ContentIssue, path: Array<string | number>): boolean {
  return issue.path.length === path.length && issue.path.every((p, i) => p === path[i]);
}

function FieldArea(props: {
  entry: FieldEntry;
  at: Array<string | number>;
  issues: readonly ContentIssue[];
  type: StructuredContentType;
}) {
  const { entry, at } = props;
  const name = `content.${at.join(".")}`;
  const id = `edit-${at.join("-")}`;
  const definition = props.type.fields.find((f) => f.key === entry.key);
  const known = definition !== undefined;
  const kind = entry.kind === "list" ? "one a line" : entry.kind === "json" ? "JSON" : undefined;
  const notes = [...(definition?.required === true ? ["required"] : []), ...(kind ? [kind] : [])];
  const hint = notes.length === 0 ? "" : ` (${notes.join(", ")})`;
  const problems = props.issues.filter((i) => samePath(i, at));
  return (
    <>
      <label for={id}>{`${fieldLabel(entry.key)}${hint}`}</label>
      {known ? null : <input type="hidden" name={`kind.${at.join(".")}`} value={entry.kind} />}
      <textarea
        id={id}
        name={name}
        data-field={entry.key}
        rows={entry.kind === "text" ? 2 : 4}
        aria-invalid={problems.length > 0 ? "true" : undefined}
      >
        {entry.text}
      </textarea>
      {problems.map((p) => (
        <p class="field-error">{p.message}</p>
      ))}
    </>
  );
}

function StructuredFields(props: {
  type: StructuredContentType;
  values: FormInput;
  issues: readonly ContentIssue[];
}) {
  const { type, values, issues } = props;
  if (values.shape === "object") {
    return (
      <fieldset class="field-form" id="edit-fields">
        <legend>{`The fields of ${type.name}`}</legend>
        {values.fields.map((entry) => (
          <FieldArea entry={entry} at={[entry.key]} issues={issues} type={type} />
        ))}
      </fieldset>
    );
  }
  const item = type.itemName ?? "Item";
  const items = [
    ...values.items,
    ...Array.from({ length: BLANK_ITEMS }, () => withKnownFields(type, [])),
  ];
  return (
    <div id="edit-fields">
      <p class="muted">{`Empty all of a ${item.toLowerCase()}'s fields to remove it; fill a new one to add it.`}</p>
      {items.map((entries, index) => (
        <fieldset class="field-form" data-item={String(index + 1)}>
          <legend>
            {index < values.items.length ? `${item} ${index + 1}` : `New ${item.toLowerCase()}`}
          </legend>
          {entries.map((entry) => (
            <FieldArea entry={entry} at={[index, entry.key]} issues={issues} type={type} />
          ))}
        </fieldset>
      ))}
    </div>
  );
}

function Problems(props: { type?: StructuredContentType; draft?: EditDraft }) {
  const { draft, type } = props;
  if (draft === undefined || (draft.issues.length === 0 && draft.message === undefined))
    return null;
  const lines = [
    ...(draft.message === undefined ? [] : [draft.message]),
    ...draft.issues.map((i) => (type === undefined ? i.message : describeIssue(type, i))),
  ];
  return (
    <div class="alert" role="alert" id="edit-problems">
      <p>The edit was not saved:</p>
      <ul>
        {lines.map((line) => (
          <li>{line}</li>
        ))}
      </ul>
    </div>
  );
}

export function EditContentFields(props: {
  content: string;
  type?: StructuredContentType;
  draft?: EditDraft;
}) {
  const { type, draft } = props;
  if (type === undefined) {
    return (
      <>
        <Problems draft={draft} />
        <label for="edit-content">The content as it should be</label>
        <textarea id="edit-content" name="content" class="edit">
          {draft?.text ?? props.content}
        </textarea>
      </>
    );
  }
  const values = formValues(type, props.content, draft);
  return (
    <>
      <Problems type={type} draft={draft} />
      <input type="hidden" name={CONTENT_FORM_FIELD} value={type.shape} />
      <StructuredFields type={type} values={values} issues={draft?.issues ?? []} />
    </>
  );
}
