/** Content as a reader sees it: Markdown (raw HTML off), structured content as labelled fields. */
import type { ContentField, ContentForm } from "../../graph/contentFields.js";
import { markdownHtml } from "./markdownHtml.js";

/** Markdown drawn by the one Markdown renderer (markdownHtml: raw HTML off, links checked). */
export function MarkdownText(props: { text: string }) {
  return (
    <div class="markdown-text" dangerouslySetInnerHTML={{ __html: markdownHtml(props.text) }} />
  );
}

function FieldValue(props: { field: ContentField }) {
  const { field } = props;
  if (field.kind === "list") {
    return (
      <ul>
        {(field.items ?? []).map((item) => (
          <li>{item}</li>
        ))}
      </ul>
    );
  }
  if (field.kind === "json") return <pre class="code">{field.text}</pre>;
  return <span class="text">{field.text}</span>;
}

function Fields(props: { fields: readonly ContentField[] }) {
  const shown = props.fields.filter((f) => f.text.trim() !== "");
  if (shown.length === 0) return <p class="muted">No field has content.</p>;
  return (
    <dl class="fields">
      {shown.map((field) => (
        <>
          <dt>{field.label}</dt>
          <dd data-field={field.key}>
            <FieldValue field={field} />
          </dd>
        </>
      ))}
    </dl>
  );
}

/** Structured content as labelled fields; a list as one numbered group of fields per item. */
export function StructuredContent(props: { form: ContentForm; itemName?: string }) {
  const { form } = props;
  if (form.shape === "object") return <Fields fields={form.fields} />;
  if (form.items.length === 0) return <p class="muted">No items.</p>;
  return (
    <ol class="items">
      {form.items.map((fields, index) => (
        <li data-item={String(index + 1)}>
          <h4>{`${props.itemName ?? "Item"} ${index + 1}`}</h4>
          <Fields fields={fields} />
        </li>
      ))}
    </ol>
  );
}
