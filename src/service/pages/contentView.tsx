/**
 * Content as a reader sees it, escaped by construction (hono/jsx): Markdown as text blocks
 * (headings, paragraphs, lists, quotes, code; nothing in it becomes HTML), and structured content
 * as labelled fields — a field's name as its label, lists as lists, anything nested as JSON.
 */
import type { ContentField, ContentForm } from "../../graph/contentFields.js";
import { inlineSegments, type MarkdownBlock, markdownBlocks } from "./markdownBlocks.js";

function Inline(props: { text: string }) {
  return (
    <>
      {inlineSegments(props.text).map((segment) =>
        segment.kind === "strong" ? (
          <strong>{segment.text}</strong>
        ) : segment.kind === "code" ? (
          <code>{segment.text}</code>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

function Block(props: { block: MarkdownBlock }) {
  const { block } = props;
  switch (block.kind) {
    case "heading":
      // Under the page's own h1–h3: a section's headings start at h4.
      return block.level <= 1 ? (
        <h4>
          <Inline text={block.text} />
        </h4>
      ) : block.level === 2 ? (
        <h5>
          <Inline text={block.text} />
        </h5>
      ) : (
        <h6>
          <Inline text={block.text} />
        </h6>
      );
    case "list": {
      const items = block.items.map((item) => (
        <li>
          <Inline text={item} />
        </li>
      ));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case "quote":
      return <blockquote class="text">{block.text}</blockquote>;
    case "code":
      return <pre class="code">{block.text}</pre>;
    case "paragraph":
      return (
        <p class="text">
          <Inline text={block.text} />
        </p>
      );
  }
}

/** Markdown shown as text blocks (see the module's description). */
export function MarkdownText(props: { text: string }) {
  return (
    <div class="markdown-text">
      {markdownBlocks(props.text).map((block) => (
        <Block block={block} />
      ))}
    </div>
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
