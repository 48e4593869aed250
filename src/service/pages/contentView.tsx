/** Content as a reader sees it: Markdown (raw HTML off), structured content as labelled fields. */

import MarkdownIt from "markdown-it";
import type { ContentField, ContentForm } from "../../graph/contentFields.js";

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

/*
 * Markdown as HTML by markdown-it: raw HTML off, links only to http, https and mailto, images as
 * their alt text (a page loads nothing from elsewhere), a section's `#` as h4 (under the page's
 * h1–h3), tables in a container that scrolls on its own.
 */
const LINK_SCHEMES = /^(?:https?:|mailto:)/i;

function createRenderer(): MarkdownIt {
  const md = new MarkdownIt("default", {
    html: false,
    linkify: false,
    typographer: false,
    breaks: false,
  });
  md.validateLink = (url) => LINK_SCHEMES.test(url.trim());
  md.disable("image");
  md.core.ruler.push("evalgate_page_shape", (state) => {
    for (const token of state.tokens) {
      if (token.type === "heading_open" || token.type === "heading_close") {
        token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 3)}`;
      }
    }
  });
  const renderToken = md.renderer.renderToken.bind(md.renderer);
  md.renderer.rules.link_open = (tokens, index, options) => {
    tokens[index]?.attrSet("rel", "nofollow noopener noreferrer");
    return renderToken(tokens, index, options);
  };
  md.renderer.rules.table_open = (tokens, index, options) =>
    `<div class="table-scroll">${renderToken(tokens, index, options)}`;
  md.renderer.rules.table_close = (tokens, index, options) =>
    `${renderToken(tokens, index, options)}</div>`;
  return md;
}

const renderer = createRenderer();

export function markdownHtml(markdown: string): string {
  return renderer.render(markdown);
}
